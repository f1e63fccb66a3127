const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), summary, [tabindex]:not([tabindex="-1"])';

/**
 * The first control after `element` in document order, outside it: where focus goes
 * when `element` leaves the page, instead of falling to `<body>`.
 */
export function nextFocusable(element: HTMLElement | null): HTMLElement | null {
  if (!element) return null;
  for (const candidate of element.ownerDocument.querySelectorAll<HTMLElement>(FOCUSABLE)) {
    if (element.contains(candidate)) continue;
    if (element.compareDocumentPosition(candidate) & Node.DOCUMENT_POSITION_FOLLOWING) return candidate;
  }
  return null;
}
