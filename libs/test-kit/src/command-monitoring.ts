/**
 * `url` with the driver's command monitoring on, so a client made from it emits
 * `commandStarted` for every command: what the shard-key tests read the filters of.
 */
export const withCommandMonitoring = (url: string): string =>
  `${url}${url.includes('?') ? '&' : /^mongodb(\+srv)?:\/\/[^/]+\//.test(url) ? '?' : '/?'}monitorCommands=true`;
