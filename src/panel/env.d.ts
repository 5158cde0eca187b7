// Panel: Vite's client types (import.meta.glob for the bundled rule doc pages).
/// <reference types="vite/client" />
