import { request as pwRequest } from '@playwright/test';
import { newGuest } from '../tests/support/accounts.ts';
const request = await pwRequest.newContext({ baseURL: 'http://localhost:3400' });
console.log((await newGuest(request)).token);
