#!/usr/bin/env node
// The published command: runs the TypeScript sources through tsx.
import { register } from 'tsx/esm/api';

register();
await import('../src/main.ts');
