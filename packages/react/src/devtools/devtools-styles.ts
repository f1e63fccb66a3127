import type { CSSProperties } from "react";

// Styles as objects, set through the CSSOM: no stylesheet to import, and allowed
// under a strict Content-Security-Policy (`style-src 'self'`), unlike a <style> tag.
const mono = "ui-monospace, SFMono-Regular, Menlo, Consolas, monospace";

export const styles = {
  root: { fontFamily: "system-ui, sans-serif", color: "#1b1f24", margin: "16px 0" },
  button: {
    minHeight: 44,
    minWidth: 44,
    padding: "8px 14px",
    border: "1px solid #57606a",
    borderRadius: 6,
    background: "#f6f8fa",
    color: "#1b1f24",
    font: "inherit",
    cursor: "pointer",
  },
  panel: {
    marginTop: 8,
    padding: 12,
    border: "1px solid #57606a",
    borderRadius: 8,
    background: "#ffffff",
    overflowWrap: "anywhere",
  },
  heading: { fontSize: "1.1rem", margin: "0 0 8px" },
  subheading: { fontSize: "1rem", margin: "0 0 6px", fontFamily: mono },
  minor: { fontSize: "0.9rem", margin: "8px 0 4px" },
  facts: {
    display: "grid",
    gridTemplateColumns: "max-content minmax(0, 1fr)",
    gap: "2px 12px",
    margin: "0 0 8px",
  },
  term: { color: "#57606a" },
  value: { margin: 0, fontFamily: mono, fontSize: "0.85rem" },
  entry: { borderTop: "1px solid #d0d7de", paddingTop: 8, marginTop: 8 },
  steps: { margin: 0, paddingLeft: 20, fontFamily: mono, fontSize: "0.85rem" },
  actions: { display: "flex", flexWrap: "wrap", gap: 8, alignItems: "center", margin: "8px 0" },
  muted: { color: "#57606a", margin: 0 },
} satisfies Record<string, CSSProperties>;
