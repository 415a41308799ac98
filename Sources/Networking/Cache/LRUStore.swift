/// A map that keeps its total cost under a limit by evicting the least recently used entries.
///
/// Lookups, inserts and removals are O(1): a dictionary indexes nodes of a doubly linked list kept
/// in an array (no per-node allocation). Not thread-safe by itself; ``HTTPCache`` guards it.
struct LRUStore<Key: Hashable, Value> {
    private struct Node {
        var key: Key
        var value: Value
        var cost: Int
        var previous: Int?
        var next: Int?
    }

    /// The most total cost kept.
    let costLimit: Int
    /// The total cost of what is kept now.
    private(set) var totalCost = 0

    private var nodes: [Node?] = []
    private var free: [Int] = []
    private var index: [Key: Int] = [:]
    private var head: Int?  // most recent
    private var tail: Int?  // least recent

    init(costLimit: Int) {
        self.costLimit = costLimit
    }

    /// How many entries are kept.
    var count: Int { index.count }

    /// The value for `key`, marking it most recently used.
    mutating func value(for key: Key) -> Value? {
        guard let slot = index[key] else { return nil }
        moveToFront(slot)
        return nodes[slot]?.value
    }

    /// Stores `value`, then evicts from the least recent end until under the limit.
    ///
    /// A value costing more than the whole limit is not kept. Returns the evicted keys.
    @discardableResult
    mutating func set(_ value: Value, for key: Key, cost: Int) -> [Key] {
        removeValue(for: key)
        guard cost <= costLimit else { return [] }
        let node = Node(key: key, value: value, cost: cost, previous: nil, next: head)
        let slot: Int
        if let reused = free.popLast() {
            nodes[reused] = node
            slot = reused
        } else {
            nodes.append(node)
            slot = nodes.count - 1
        }
        if let head { nodes[head]?.previous = slot }
        head = slot
        if tail == nil { tail = slot }
        index[key] = slot
        totalCost += cost
        var evicted: [Key] = []
        while totalCost > costLimit, let last = tail, let lastKey = nodes[last]?.key {
            removeValue(for: lastKey)
            evicted.append(lastKey)
        }
        return evicted
    }

    /// Removes the entry for `key`, if any.
    mutating func removeValue(for key: Key) {
        guard let slot = index.removeValue(forKey: key), let node = nodes[slot] else { return }
        unlink(slot, node)
        totalCost -= node.cost
        nodes[slot] = nil
        free.append(slot)
    }

    /// Removes every entry whose key matches.
    mutating func removeAll(where matches: (Key) -> Bool) {
        for key in index.keys where matches(key) {
            removeValue(for: key)
        }
    }

    /// The keys from most to least recently used.
    var keysByRecency: [Key] {
        var keys: [Key] = []
        var cursor = head
        while let slot = cursor, let node = nodes[slot] {
            keys.append(node.key)
            cursor = node.next
        }
        return keys
    }

    private mutating func moveToFront(_ slot: Int) {
        guard head != slot, let node = nodes[slot] else { return }
        unlink(slot, node)
        nodes[slot]?.previous = nil
        nodes[slot]?.next = head
        if let head { nodes[head]?.previous = slot }
        head = slot
        if tail == nil { tail = slot }
    }

    private mutating func unlink(_ slot: Int, _ node: Node) {
        if let previous = node.previous { nodes[previous]?.next = node.next } else { head = node.next }
        if let next = node.next { nodes[next]?.previous = node.previous } else { tail = node.previous }
    }
}
