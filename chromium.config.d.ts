export declare const chromiumExecutablePath: string;
export declare const chromiumArgs: readonly string[];
