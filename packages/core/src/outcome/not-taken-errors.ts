// The errors of answers a degraded server did not take from a batch. Its own module: the
// rules that write them load with the sending code, the page that reads them does not.
export const NOT_TAKEN_ERRORS = {
  askedAgain: "The question is still open.",
  skippedInBatch: "Only the other answers were taken.",
} as const;
