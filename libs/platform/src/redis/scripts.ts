import type { Redis } from './connection.js';

/** A Lua script run as a command of the client: its keys come first in the call's arguments. */
export interface RedisScript {
  numberOfKeys: number;
  lua: string;
}

/**
 * The client with `scripts` as commands of its own (ioredis' `defineCommand`: sent by SHA, the
 * script loaded again if Redis lost it), typed as `Commands` says. Defined once per client: the
 * services share one client between the parts that each bring their scripts.
 */
export function withScripts<Commands extends object>(
  redis: Redis,
  scripts: Record<keyof Commands & string, RedisScript>,
): Redis & Commands {
  for (const [name, script] of Object.entries<RedisScript>(scripts))
    if (!(name in redis)) redis.defineCommand(name, script);
  return redis as Redis & Commands;
}
