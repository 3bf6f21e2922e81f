/** The variable that pins the network transports' bearer token (auth.ts): a leaf, so the CLI's start path names it without loading node:crypto. */
export const TOKEN_ENV = 'SIGHTLINE_MCP_TOKEN';
