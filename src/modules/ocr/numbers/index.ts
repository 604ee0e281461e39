export * from './postal-codes.ts';
export * from './tracking-numbers.ts';
