import { hash, verify } from '@node-rs/argon2';

/** Turns passwords into stored hashes and checks them. */
export interface PasswordHasher {
  hash(password: string): Promise<string>;
  /** false for a wrong password and for a hash that cannot be read. */
  verify(hashed: string, password: string): Promise<boolean>;
}

/*
 * Argon2id (the library's default algorithm) with OWASP's baseline cost: 19 MiB, 2 passes,
 * 1 lane. The PHC string keeps the parameters, so raising them later still verifies old hashes.
 */
const OPTIONS = { memoryCost: 19_456, timeCost: 2, parallelism: 1 };

/** Argon2id on libuv's thread pool, off the event loop. */
export class Argon2PasswordHasher implements PasswordHasher {
  hash(password: string): Promise<string> {
    return hash(password, OPTIONS);
  }

  async verify(hashed: string, password: string): Promise<boolean> {
    try {
      return await verify(hashed, password);
    } catch {
      return false;
    }
  }
}
