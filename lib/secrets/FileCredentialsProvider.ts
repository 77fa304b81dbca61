import { readFile } from 'node:fs/promises';
import type {
  CredentialsProvider,
  GetCredentialsOptions,
  SpotCredentials,
} from '../exports/upstream/CredentialsProvider';
import {
  CredentialsNotFoundError,
  CredentialsUnavailableError,
  InvalidCredentialsError,
} from '../exports/upstream/errors';
import { type CredentialsFile, parseJsonQuietly, readCredentialsFile } from './spotCredentialsSchema';

/**
 * Local mode: one JSON file mapping spot id → `{"apiKey": "..."}`. Read once and
 * kept; `forceRefresh` re-reads it so an edited key is picked up without a restart.
 */
export class FileCredentialsProvider implements CredentialsProvider {
  readonly #path: string;
  #contents: Promise<CredentialsFile> | undefined;

  constructor(path: string) {
    this.#path = path;
  }

  async getCredentials(spotId: string, options: GetCredentialsOptions = {}): Promise<SpotCredentials> {
    if (options.forceRefresh || this.#contents === undefined) {
      this.#contents = this.#read(spotId);
      // A failed read must not be cached: the next call tries again.
      this.#contents.catch(() => {
        this.#contents = undefined;
      });
    }
    const file = await this.#contents;
    const entry = Object.hasOwn(file, spotId) ? file[spotId] : undefined;
    if (entry === undefined) throw new CredentialsNotFoundError(spotId, `file ${this.#path}`);
    return { spotId, apiKey: entry.apiKey };
  }

  /** Spot ids this file has credentials for. */
  async spotIds(): Promise<string[]> {
    this.#contents ??= this.#read('*');
    return Object.keys(await this.#contents);
  }

  async #read(spotId: string): Promise<CredentialsFile> {
    const source = `file ${this.#path}`;
    let text: string;
    try {
      text = await readFile(this.#path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
        throw new CredentialsNotFoundError(spotId, `${source} (the file does not exist)`, { cause: error });
      }
      throw new CredentialsUnavailableError(spotId, source, { cause: error });
    }
    const json = parseJsonQuietly(text);
    if (!json.ok) throw new InvalidCredentialsError(spotId, source, ['the file is not JSON']);
    const file = readCredentialsFile(json.value);
    if (!file.ok) throw new InvalidCredentialsError(spotId, source, file.issues);
    return file.value;
  }
}
