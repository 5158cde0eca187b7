// Runs in Node (CLI): ANSI styling, off unless stdout is a terminal and NO_COLOR is unset or empty.

export interface Style {
  red(text: string): string;
  yellow(text: string): string;
  cyan(text: string): string;
  bold(text: string): string;
  dim(text: string): string;
}

const wrap = (open: number, close: number) => (text: string) => `\u001b[${open}m${text}\u001b[${close}m`;

export const ansi: Style = {
  red: wrap(31, 39),
  yellow: wrap(33, 39),
  cyan: wrap(36, 39),
  bold: wrap(1, 22),
  dim: wrap(2, 22),
};

const same = (text: string): string => text;
export const plain: Style = { red: same, yellow: same, cyan: same, bold: same, dim: same };

/** https://no-color.org: any non-empty NO_COLOR turns colour off; so does output that is not a terminal. */
export function wantsColor(isTTY: boolean | undefined, env: Readonly<Record<string, string | undefined>>): boolean {
  return isTTY === true && !env.NO_COLOR;
}
