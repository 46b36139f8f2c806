/** In-memory stock levels for a small warehouse. */
export interface StockItem {
  sku: string;
  name: string;
  quantity: number;
  reorderLevel: number;
}

export class Inventory {
  private readonly items = new Map<string, StockItem>();

  add(item: StockItem): void {
    if (this.items.has(item.sku)) {
      throw new Error(`duplicate SKU ${item.sku}`);
    }
    this.items.set(item.sku, { ...item });
  }

  /** Removes `count` units; refuses to go below zero. */
  take(sku: string, count: number): number {
    const item = this.require(sku);
    if (count > item.quantity) {
      throw new Error(`only ${item.quantity} of ${sku} left`);
    }
    item.quantity -= count;
    return item.quantity;
  }

  restock(sku: string, count: number): void {
    this.require(sku).quantity += count;
  }

  /** Items at or below their reorder level, lowest stock first. */
  needsReorder(): StockItem[] {
    return [...this.items.values()]
      .filter((item) => item.quantity <= item.reorderLevel)
      .sort((a, b) => a.quantity - b.quantity);
  }

  private require(sku: string): StockItem {
    const item = this.items.get(sku);
    if (!item) {
      throw new Error(`unknown SKU ${sku}`);
    }
    return item;
  }
}
