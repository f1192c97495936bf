import CLibgit2
import Foundation

/// Reads commits straight from a repository's pack files, as git itself does, for history
/// walks over thousands of commits: the pack index (`.idx`, version 2) is searched in place
/// (memory-mapped), and the commit's zlib stream is inflated with one reused stream into one
/// reused buffer. libgit2's reader, the fallback for everything else, costs a pack lookup
/// through its locks, a new zlib stream (7 KiB allocated and freed) and an allocation per
/// object: as much, over a release's history, as inflating the commits.
///
/// Only the plain case is read here: a commit stored whole in a pack listed in
/// `objects/pack`. A delta, a loose object, an object in an alternate repository, an index of
/// another version, or anything that does not check out (sizes, zlib's end of stream) makes
/// `commit(_:)` return nil, and the caller asks libgit2.
final class GitPackReader {
    /// One memory-mapped pack and its index.
    private struct Pack {
        let index: Mapping
        let data: Mapping
        /// The number of objects (the index's last fan-out entry).
        let count: Int
        /// The fan-out table: for each first byte, how many ids are less or equal.
        let fanout: UnsafeRawPointer
        /// The sorted ids, 20 bytes each.
        let ids: UnsafeRawPointer
        /// 4-byte offsets, or (top bit set) positions in the 8-byte offset table.
        let offsets: UnsafeRawPointer
        let largeOffsets: UnsafeRawPointer
        let largeOffsetCount: Int
    }

    /// A read-only memory mapping of a whole file, unmapped when released.
    private final class Mapping {
        let base: UnsafeRawPointer
        let size: Int

        init?(path: String) {
            let descriptor = open(path, O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else { return nil }
            defer { close(descriptor) }
            var information = stat()
            guard fstat(descriptor, &information) == 0, information.st_size > 0 else { return nil }
            size = Int(information.st_size)
            guard let address = mmap(nil, size, PROT_READ, MAP_PRIVATE, descriptor, 0), address != MAP_FAILED else { return nil }
            base = UnsafeRawPointer(address)
        }

        deinit { munmap(UnsafeMutableRawPointer(mutating: base), size) }
    }

    private var packs: [Pack] = []
    private var stream = z_stream()
    private var streamReady = false
    private var buffer: UnsafeMutableRawPointer
    private var bufferSize = 64 << 10
    /// How many commits were read here (for tests: the fast path is really taken).
    private(set) var commitsRead = 0

    /// A reader over the packs in `objectsDirectory/pack`; none readable gives a reader that
    /// always answers nil.
    init(objectsDirectory: String) {
        buffer = UnsafeMutableRawPointer.allocate(byteCount: bufferSize, alignment: 16)
        let folder = objectsDirectory + "/pack"
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        for name in names.sorted() where name.hasSuffix(".idx") {
            let stem = folder + "/" + name.dropLast(4)
            if let pack = Self.load(index: stem + ".idx", pack: stem + ".pack") { packs.append(pack) }
        }
        streamReady = !packs.isEmpty && slipway_inflate_init(&stream) == Z_OK
    }

    deinit {
        if streamReady { inflateEnd(&stream) }
        buffer.deallocate()
    }

    /// The commit `oid` names, when it is stored whole in one of the packs; nil otherwise.
    func commit(_ oid: GitOID) -> GitCommit? {
        guard streamReady else { return nil }
        let raw = oid.raw
        for pack in packs {
            guard let offset = withUnsafeBytes(of: raw.id, { Self.find($0.baseAddress!, in: pack) }) else { continue }
            // A hit in one pack that cannot be read here is left to libgit2, which knows deltas.
            guard let bytes = inflateCommit(at: offset, in: pack) else { return nil }
            guard let commit = GitCommitParser.parse(bytes, oid: oid) else { return nil }
            commitsRead += 1
            return commit
        }
        return nil
    }

    // MARK: - The index

    /// Opens an index of version 2 and its pack, checking that their sizes agree.
    private static func load(index indexPath: String, pack packPath: String) -> Pack? {
        guard let index = Mapping(path: indexPath), let data = Mapping(path: packPath) else { return nil }
        let headerSize = 8, fanoutSize = 256 * 4
        guard index.size >= headerSize + fanoutSize,
              index.base.loadUnaligned(as: UInt32.self).bigEndian == 0xFF74_4F63,
              index.base.loadUnaligned(fromByteOffset: 4, as: UInt32.self).bigEndian == 2,
              data.size >= 12, data.base.loadUnaligned(as: UInt32.self).bigEndian == 0x5041_434B else { return nil }
        let fanout = index.base + headerSize
        let count = Int(fanout.loadUnaligned(fromByteOffset: 255 * 4, as: UInt32.self).bigEndian)
        let tables = headerSize + fanoutSize
        let ids = tables, crcs = ids + 20 * count, offsets = crcs + 4 * count, large = offsets + 4 * count
        // The rest is the table of 8-byte offsets, then two 20-byte checksums.
        let remaining = index.size - large - 40
        guard remaining >= 0, remaining % 8 == 0 else { return nil }
        return Pack(index: index, data: data, count: count, fanout: fanout, ids: index.base + ids,
                    offsets: index.base + offsets, largeOffsets: index.base + large, largeOffsetCount: remaining / 8)
    }

    /// The pack offset of the object with the 20-byte id at `id`, by binary search within its
    /// first byte's fan-out range.
    private static func find(_ id: UnsafeRawPointer, in pack: Pack) -> Int? {
        let first = Int(id.load(as: UInt8.self))
        var low = first == 0 ? 0 : Int(pack.fanout.loadUnaligned(fromByteOffset: (first - 1) * 4, as: UInt32.self).bigEndian)
        var high = Int(pack.fanout.loadUnaligned(fromByteOffset: first * 4, as: UInt32.self).bigEndian)
        guard low <= high, high <= pack.count else { return nil }
        while low < high {
            let middle = (low + high) / 2
            let order = memcmp(pack.ids + 20 * middle, id, 20)
            if order == 0 { return offset(at: middle, in: pack) }
            if order < 0 { low = middle + 1 } else { high = middle }
        }
        return nil
    }

    private static func offset(at position: Int, in pack: Pack) -> Int? {
        let small = pack.offsets.loadUnaligned(fromByteOffset: 4 * position, as: UInt32.self).bigEndian
        guard small & 0x8000_0000 != 0 else { return Int(small) }
        let slot = Int(small & 0x7FFF_FFFF)
        guard slot < pack.largeOffsetCount else { return nil }
        return Int(exactly: pack.largeOffsets.loadUnaligned(fromByteOffset: 8 * slot, as: UInt64.self).bigEndian)
    }

    // MARK: - The pack

    /// The inflated object at `offset` when it is a whole commit (type 1); nil for other
    /// types (deltas above all) and for anything inconsistent.
    private func inflateCommit(at offset: Int, in pack: Pack) -> UnsafeRawBufferPointer? {
        guard offset >= 12, offset < pack.data.size - 20 else { return nil }
        var position = offset
        var byte = pack.data.base.load(fromByteOffset: position, as: UInt8.self)
        position += 1
        guard (byte >> 4) & 0x7 == 1 else { return nil }
        var size = Int(byte & 0x0F)
        var shift = 4
        while byte & 0x80 != 0 {
            guard position < pack.data.size, shift < 57 else { return nil }
            byte = pack.data.base.load(fromByteOffset: position, as: UInt8.self)
            position += 1
            size |= Int(byte & 0x7F) << shift
            shift += 7
        }
        if size + 1 > bufferSize {
            guard size < 1 << 30 else { return nil }
            buffer.deallocate()
            bufferSize = max(size + 1, 2 * bufferSize)
            buffer = UnsafeMutableRawPointer.allocate(byteCount: bufferSize, alignment: 16)
        }
        guard inflateReset(&stream) == Z_OK else { return nil }
        stream.next_in = UnsafeMutablePointer(mutating: (pack.data.base + position).assumingMemoryBound(to: Bytef.self))
        stream.avail_in = uInt(clamping: pack.data.size - 20 - position)
        stream.next_out = buffer.assumingMemoryBound(to: Bytef.self)
        // One byte more than the object, so that a stream longer than its header says shows.
        stream.avail_out = uInt(size + 1)
        guard inflate(&stream, Z_FINISH) == Z_STREAM_END, Int(stream.total_out) == size else { return nil }
        return UnsafeRawBufferPointer(start: buffer, count: size)
    }
}
