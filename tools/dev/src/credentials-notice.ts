/**
 * What the launcher prints about the seeded account: where the credentials are and the token's
 * id, never the password or the token's secret (terminal scrollback and CI logs keep them).
 */
export function credentialsNotice(input: {
  host: string;
  email: string;
  /** `<id>|<secret>`. */
  token: string;
  devFilePath: string;
}): string {
  const tokenId = input.token.split('|')[0] ?? '?';
  return (
    `tenant ${input.host}: owner ${input.email}; password and all-scopes token ` +
    `(id ${tokenId}) are in ${input.devFilePath}`
  );
}
