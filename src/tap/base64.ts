// Runs anywhere: bytes -> base64 without building one huge argument list.

export function bytesToBase64(bytes: Uint8Array, btoa: (s: string) => string): string {
  let binary = '';
  const step = 0x8000;
  for (let i = 0; i < bytes.length; i += step) {
    binary += String.fromCharCode.apply(null, bytes.subarray(i, i + step) as unknown as number[]);
  }
  return btoa(binary);
}
