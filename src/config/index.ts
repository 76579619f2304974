/**
 * Configuration: the SVC_* settings, their defaults and validation. Read once at start-up
 * (loadConfig) and passed down; no other module reads process.env.
 */
export { loadConfig, ConfigError } from './config.js';
export type { Config, ConfigOverrides, RbacConfig, JwtConfig, JwtKeySource } from './config.js';
export { envSchema } from './schema.js';
export type { ClusterConfig, NodeRole } from './cluster.js';
