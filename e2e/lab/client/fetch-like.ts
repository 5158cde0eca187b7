// Runs in the demo page and in Node: the fetch the lab's clients are given (a recording one in tests).
export type FetchLike = (url: string | URL, init?: RequestInit) => Promise<Response>;
