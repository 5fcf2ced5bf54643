export interface LocalRegistry {
  /** The registry URL (ends in `/`), for `npm_config_registry`. */
  readonly url: string;
  /** Every path requested, in order. */
  readonly requests: string[];
  close(): Promise<void>;
}
export function startRegistry(tarball: string, manifest: { name: string; version: string }): Promise<LocalRegistry>;
export function refusingRegistry(): Promise<string>;
