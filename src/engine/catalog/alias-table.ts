/**
 * The catalog's aliases as lookups: alias → indexes (for resolving read expressions) and the
 * index a write addressed to an alias goes to. The engine of a node keeps one; so does the api
 * role of a cluster, which routes writes to the node holding the write index.
 */
import { BadRequestError } from '../../common/index.js';

/** One alias → index link, as the catalog holds it. */
export interface AliasLink {
  alias: string;
  index: string;
  isWriteIndex: boolean | null;
}

export class AliasTable {
  /** alias → indexes */
  private aliases: ReadonlyMap<string, readonly string[]> = new Map();
  /** alias → its write index, or null when it has none */
  private writeIndexes: ReadonlyMap<string, string | null> = new Map();

  map(): ReadonlyMap<string, readonly string[]> {
    return this.aliases;
  }

  /** Replaces the table with the catalog's links: the alias map and each alias' write index. */
  set(links: readonly AliasLink[]): void {
    const byAlias = new Map<string, AliasLink[]>();
    for (const link of links) {
      let list = byAlias.get(link.alias);
      if (!list) byAlias.set(link.alias, (list = []));
      list.push(link);
    }
    const map = new Map<string, string[]>();
    const writes = new Map<string, string | null>();
    for (const [alias, list] of byAlias) {
      map.set(alias, list.map((l) => l.index).sort());
      // as in Elasticsearch: the flagged index, else the only index unless it is flagged false
      const flagged = list.find((l) => l.isWriteIndex === true);
      const only = list.length === 1 && list[0]!.isWriteIndex !== false ? list[0]!.index : null;
      writes.set(alias, flagged?.index ?? only);
    }
    this.aliases = map;
    this.writeIndexes = writes;
  }

  /** The index a write addressed to `name` goes to: `name` itself (also when it is an index), or the write index of the alias `name`. */
  writeIndexFor(name: string, isIndex: boolean): string {
    if (!this.aliases.has(name) || isIndex) return name;
    // set() gives every alias an entry: its write index, or null
    const target = this.writeIndexes.get(name);
    if (target !== null && target !== undefined) return target;
    throw new BadRequestError(
      `no write index is defined for alias [${name}]. The write index may be explicitly disabled using is_write_index=false or the alias points to multiple indices without one being designated as a write index`,
    );
  }
}
