/** Colours are stored as the operator typed them, but only in hex form the web app can use. */
export function isHexColour(value: string): boolean {
  return /^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/.test(value);
}
