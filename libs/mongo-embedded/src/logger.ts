export interface Logger {
  info(msg: string): void;
  warn(msg: string): void;
  error(msg: string): void;
}

export const silentLogger: Logger = { info() {}, warn() {}, error() {} };

export const stderrLogger: Logger = {
  info: (m) => process.stderr.write(`[mongo-embedded] ${m}\n`),
  warn: (m) => process.stderr.write(`[mongo-embedded] WARN ${m}\n`),
  error: (m) => process.stderr.write(`[mongo-embedded] ERROR ${m}\n`),
};
