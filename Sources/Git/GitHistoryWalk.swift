import CLibgit2

/// The commits reachable from one commit and not from others, newest first in topological
/// order: what `git_revwalk` gives with `GIT_SORT_TOPOLOGICAL | GIT_SORT_TIME`, by the same
/// method, but reading each commit once, straight from the object database through
/// `GitCommitParser`. (libgit2's walk parses every commit into its own list, and a
/// `git_commit_lookup` per commit then parses it again into a commit object; over a release of
/// ten thousand commits that was most of the time.)
///
/// The method, as in libgit2's `limit_list` and `sort_in_topological_order`:
/// 1. Limit: take commits newest first from a queue ordered by commit time, starting from the
///    wanted commit and the hidden ones. A hidden commit makes its parents hidden (and their
///    parents, as far as they have been read); a wanted one is kept and its parents queued.
///    Stop when only hidden commits are left, after a few more (`slop`) in case of clock skew.
/// 2. Sort: emit the kept commits by Kahn's algorithm, a commit once all its kept children are
///    out, the newest of the ready ones first; skip those that became hidden after being kept.
///
/// Ties in commit time go to the commit found first (libgit2 leaves them to its heap).
struct GitHistoryWalk {
    /// A commit found on the way, read or not yet.
    private struct Node {
        let oid: GitOID
        var parsed = false
        var time: Int64 = 0
        var firstParent: Int32 = -1
        var otherParents: [Int32] = []
        var hidden = false
        var seen = false
        var added = false
        var inDegree = 0

        var parentCount: Int { firstParent < 0 ? 0 : 1 + otherParents.count }

        func parent(_ number: Int) -> Int { Int(number == 0 ? firstParent : otherParents[number - 1]) }
    }

    /// How many more hidden commits the limit step reads once only hidden ones are queued.
    private static let slop = 5

    private var nodes: [Node] = []
    /// Each node's commit once read (same index as `nodes`), kept apart so that the nodes stay
    /// small as their array grows.
    private var commits = CommitSlots()
    private var indices: [GitOID: Int32] = [:]
    private let read: (GitOID) throws -> GitCommit
    private let shallowBoundary: Set<GitOID>

    /// A walk that reads commits with `read`; the commits in `shallowBoundary` (a shallow
    /// clone's oldest) count as having no parents, as git counts them.
    init(shallowBoundary: Set<GitOID> = [], read: @escaping (GitOID) throws -> GitCommit) {
        self.shallowBoundary = shallowBoundary
        self.read = read
    }

    /// The commits reachable from `start` and from none of `hidden`. (Once: the commits are
    /// moved out of the walk into the result.)
    mutating func commits(from start: GitOID, hiding hidden: [GitOID]) throws -> [GitCommit] {
        var queue = TimeQueue()
        let first = try parsedNode(start)
        nodes[first].seen = true
        queue.insert(first, time: nodes[first].time)
        for oid in hidden {
            let node = try parsedNode(oid)
            nodes[node].hidden = true
            markParentsHidden(node)
            if !nodes[node].seen {
                nodes[node].seen = true
                queue.insert(node, time: nodes[node].time)
            }
        }
        let kept = try limit(&queue)
        return sortTopologically(kept)
    }

    // MARK: - Limit

    private mutating func limit(_ queue: inout TimeQueue) throws -> [Int] {
        var kept: [Int] = []
        var slop = Self.slop
        var time = Int64.max
        while let node = queue.popNewest() {
            try addParents(of: node, to: &queue)
            if nodes[node].hidden {
                markParentsHidden(node)
                slop = stillInteresting(queue, time: time, slop: slop)
                if slop > 0 { continue }
                break
            }
            time = nodes[node].time
            kept.append(node)
        }
        return kept
    }

    private mutating func addParents(of node: Int, to queue: inout TimeQueue) throws {
        guard !nodes[node].added else { return }
        nodes[node].added = true
        let hidden = nodes[node].hidden
        for number in 0..<nodes[node].parentCount {
            let parent = nodes[node].parent(number)
            try parse(parent)
            if hidden {
                // Hidden all the way down, including what was reached some other way.
                nodes[parent].hidden = true
                markParentsHidden(parent)
                nodes[parent].seen = true
                queue.insert(parent, time: nodes[parent].time)
            } else if !nodes[parent].seen {
                nodes[parent].seen = true
                queue.insert(parent, time: nodes[parent].time)
            }
        }
    }

    /// 0 when the queue holds only hidden commits older than the last kept one and the slop is
    /// used up; otherwise how much slop is left.
    private func stillInteresting(_ queue: TimeQueue, time: Int64, slop: Int) -> Int {
        guard let newest = queue.newestTime else { return 0 }
        if time <= newest { return Self.slop }
        for node in queue.members where !nodes[node].hidden || nodes[node].time > time { return Self.slop }
        return slop - 1
    }

    /// Marks the parents of `node` hidden, and their parents as far as they have been read.
    private mutating func markParentsHidden(_ node: Int) {
        var pending: [Int] = (0..<nodes[node].parentCount).map { nodes[node].parent($0) }
        while var current = pending.popLast() {
            while true {
                if nodes[current].hidden { break }
                nodes[current].hidden = true
                guard nodes[current].parsed, nodes[current].parentCount > 0 else { break }
                for number in 1..<max(1, nodes[current].parentCount) { pending.append(nodes[current].parent(number)) }
                current = nodes[current].parent(0)
            }
        }
    }

    // MARK: - Topological order

    private mutating func sortTopologically(_ kept: [Int]) -> [GitCommit] {
        // libgit2 leaves hidden commits in and skips them at the end; so does this.
        for node in kept { nodes[node].inDegree = 1 }
        for node in kept {
            for number in 0..<nodes[node].parentCount {
                let parent = nodes[node].parent(number)
                if nodes[parent].inDegree > 0 { nodes[parent].inDegree += 1 }
            }
        }
        var ready = TimeQueue()
        for node in kept where nodes[node].inDegree == 1 { ready.insert(node, time: nodes[node].time) }
        var result: [GitCommit] = []
        result.reserveCapacity(kept.count)
        while let node = ready.popNewest() {
            for number in 0..<nodes[node].parentCount {
                let parent = nodes[node].parent(number)
                guard nodes[parent].inDegree > 0 else { continue }
                nodes[parent].inDegree -= 1
                if nodes[parent].inDegree == 1 { ready.insert(parent, time: nodes[parent].time) }
            }
            nodes[node].inDegree = 0
            if !nodes[node].hidden, let commit = commits.take(node) { result.append(commit) }
        }
        return result
    }

    // MARK: - Nodes

    /// The node of `oid`, made (unread) when it is new.
    private mutating func node(_ oid: GitOID) -> Int {
        if let index = indices[oid] { return Int(index) }
        let index = nodes.count
        indices[oid] = Int32(index)
        nodes.append(Node(oid: oid))
        commits.appendEmpty()
        return index
    }

    private mutating func parsedNode(_ oid: GitOID) throws -> Int {
        let index = node(oid)
        try parse(index)
        return index
    }

    /// Reads the node's commit, unless it has been read.
    private mutating func parse(_ index: Int) throws {
        guard !nodes[index].parsed else { return }
        let commit = try read(nodes[index].oid)
        nodes[index].time = Int64(commit.committer.date.timeIntervalSince1970)
        if !shallowBoundary.contains(nodes[index].oid) {
            for (number, parent) in commit.parents.enumerated() {
                let parentIndex = Int32(node(parent))
                if number == 0 { nodes[index].firstParent = parentIndex } else { nodes[index].otherParents.append(parentIndex) }
            }
        }
        nodes[index].parsed = true
        commits.store(commit, at: index)
    }
}

/// Commits by node index, in chunks of fixed capacity: a history of ten thousand commits
/// (each a few hundred bytes with its strings' headers) then never copies them as it grows,
/// and the result moves them out.
private struct CommitSlots {
    private static let chunkSize = 4096
    private var chunks: [[GitCommit?]] = []

    mutating func appendEmpty() {
        if chunks.last.map({ $0.count == Self.chunkSize }) ?? true {
            var chunk: [GitCommit?] = []
            chunk.reserveCapacity(Self.chunkSize)
            chunks.append(chunk)
        }
        chunks[chunks.count - 1].append(nil)
    }

    mutating func store(_ commit: GitCommit, at index: Int) {
        chunks[index / Self.chunkSize][index % Self.chunkSize] = commit
    }

    /// The commit at `index`, moved out (nil afterwards).
    mutating func take(_ index: Int) -> GitCommit? {
        chunks[index / Self.chunkSize][index % Self.chunkSize].take()
    }
}

/// Nodes ordered newest first, and among equal times first in, first out (as libgit2's list
/// ordered by date keeps them).
private struct TimeQueue {
    private var heap: [(time: Int64, sequence: Int, node: Int)] = []
    private var nextSequence = 0

    var newestTime: Int64? { heap.first?.time }

    var members: some Sequence<Int> { heap.lazy.map(\.node) }

    mutating func insert(_ node: Int, time: Int64) {
        heap.append((time, nextSequence, node))
        nextSequence += 1
        var child = heap.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard Self.before(heap[child], heap[parent]) else { break }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    mutating func popNewest() -> Int? {
        guard !heap.isEmpty else { return nil }
        heap.swapAt(0, heap.count - 1)
        let top = heap.removeLast()
        var parent = 0
        while true {
            let left = 2 * parent + 1
            guard left < heap.count else { break }
            var best = left
            if left + 1 < heap.count, Self.before(heap[left + 1], heap[left]) { best = left + 1 }
            guard Self.before(heap[best], heap[parent]) else { break }
            heap.swapAt(best, parent)
            parent = best
        }
        return top.node
    }

    private static func before(_ a: (time: Int64, sequence: Int, node: Int), _ b: (time: Int64, sequence: Int, node: Int)) -> Bool {
        a.time != b.time ? a.time > b.time : a.sequence < b.sequence
    }
}
