import { describe, expect, it } from 'vitest';
import { redactDatabaseUrl } from './connect.ts';

// The start-up itself with an unreachable database runs the real server process: tests/faults/start-up.test.ts.
describe('database URLs in messages', () => {
  it('hides the password of a database URL', () => {
    expect(redactDatabaseUrl('postgres://app:s3cret@db.internal:5432/portal')).toBe('postgres://app:***@db.internal:5432/portal');
    expect(redactDatabaseUrl('postgres://app@db.internal/portal')).toBe('postgres://app@db.internal/portal');
    expect(redactDatabaseUrl('file:data/playport.sqlite')).toBe('file:data/playport.sqlite');
  });
});
