import { PROFILES } from '../../modules/accounts/index.ts';
import { mayCall } from '../../platform/catalog/access.ts';
import { ACCOUNT_KINDS, type AccountKind, type Caller } from '../../platform/catalog/operation.ts';
import type { Catalog } from '../../platform/catalog/registry.ts';
import { type ToolServer, toolsOf } from './tools.ts';

/**
 * An agent reads the whole tool list into its context at the start of every conversation: the
 * widest list any connection gets stays within this many bytes of JSON (about 16,000 tokens).
 */
export const TOOL_LIST_BUDGET_BYTES = 64 * 1024;

export interface ToolListSize {
  kind: AccountKind | 'public';
  profile: string;
  tools: number;
  /** Bytes of `{"tools":[...]}` as tools/list answers it. */
  bytes: number;
}

/** The size of the tool list each account kind gets under each profile (and without a token). */
export function toolListSizes(catalog: Catalog, server: ToolServer): ToolListSize[] {
  const tools = [...toolsOf(catalog, server).values()];
  const sizeFor = (caller: Caller | null) => {
    const listed = tools.filter((tool) => mayCall(tool.operation, caller)).map((tool) => tool.definition);
    return { tools: listed.length, bytes: Buffer.byteLength(JSON.stringify({ tools: listed })) };
  };
  const sizes: ToolListSize[] = [{ kind: 'public', profile: '(no token)', ...sizeFor(null) }];
  for (const kind of ACCOUNT_KINDS) {
    for (const [profile, scopes] of Object.entries(PROFILES)) {
      const caller: Caller = {
        userId: 0,
        kind,
        businessId: kind === 'platform_admin' || kind === 'contractor' ? null : 0,
        contractorCompanyId: kind === 'contractor' ? 0 : null,
        tokenId: 0,
        scopes: scopes === 'all' ? 'all' : new Set(scopes),
      };
      sizes.push({ kind, profile, ...sizeFor(caller) });
    }
  }
  return sizes;
}

/** docs/mcp.md's table of tool-list sizes: profiles down, account kinds across. */
export function toolListSizeTable(catalog: Catalog): string {
  const sizes = toolListSizes(catalog, 'user');
  const kinds = ACCOUNT_KINDS.filter((kind) => sizes.some((size) => size.kind === kind && size.tools > 0));
  const cell = (size: ToolListSize | undefined) =>
    size && size.tools > 0 ? `${size.tools} · ${(size.bytes / 1024).toFixed(1)} KB` : '–';
  const publicSize = sizes.find((size) => size.kind === 'public');
  const rows = Object.keys(PROFILES).map(
    (profile) =>
      `| \`${profile}\` | ${kinds
        .map((kind) => cell(sizes.find((size) => size.kind === kind && size.profile === profile)))
        .join(' | ')} |`,
  );
  return [
    `| Profile | ${kinds.join(' | ')} |`,
    `|---|${kinds.map(() => '---|').join('')}`,
    ...rows,
    '',
    `Without a token: ${cell(publicSize)}. Cells: tools listed · bytes of \`{"tools":[...]}\`.`,
  ].join('\n');
}
