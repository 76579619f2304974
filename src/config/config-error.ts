/** A setting is missing, malformed or contradicts another; the message names it. */
export class ConfigError extends Error {}
