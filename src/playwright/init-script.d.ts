// Node (build): the module vite.node.config.ts makes from page/init-script.ts, built on its own into one IIFE.
declare module 'virtual:mcp-stream-inspector/init-script' {
  /** The tap and its receiver as one self-contained script, for addInitScript({ content }). */
  export const initScript: string;
  /** The package's version, for the captures' `tool.version`. */
  export const toolVersion: string;
}
