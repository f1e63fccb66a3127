/**
 * The errors of the answers a server without the contract did not take from a
 * batch: their questions are still open there, shown or not
 * (client/unshown-questions.ts). A module of its own: the verdict rules that
 * write them load with the sending code, the page that reads them does not.
 */
export const NOT_TAKEN_ERRORS = {
  askedAgain: "The question is still open.",
  skippedInBatch: "Only the other answers were taken.",
} as const;
