export * from "./ag-ui";
export * from "./ag-ui-constants";
export * from "./background";
export * from "./extensions";
export * from "./headers";
export * from "./outcome-codes";
export * from "./routes";
export * from "./stream-cursor";
