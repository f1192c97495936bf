/// Blowfish's key schedule and block encryption, as bcrypt's "expensive key schedule"
/// (eksblowfish) uses them. Only what `BcryptPBKDF` needs: no decryption, no modes.
///
/// The state (18 P words, then 4 × 256 S-box words) lives in one manually allocated buffer:
/// bcrypt_pbkdf runs millions of block encryptions, and array bounds and uniqueness checks
/// on every access would make even a debug build take seconds per key.
final class Blowfish {
    private static let wordCount = 18 + 1024
    private let state: UnsafeMutablePointer<UInt32>

    /// The initial state: pi's digits (`BlowfishTables`).
    init() {
        state = .allocate(capacity: Self.wordCount)
        BlowfishTables.p.withUnsafeBufferPointer { state.update(from: $0.baseAddress!, count: 18) }
        BlowfishTables.s.withUnsafeBufferPointer { (state + 18).update(from: $0.baseAddress!, count: 1024) }
    }

    deinit {
        // Key-dependent state: wipe it before giving the memory back.
        state.update(repeating: 0, count: Self.wordCount)
        state.deallocate()
    }

    private var p: UnsafeMutablePointer<UInt32> { state }
    private var s: UnsafeMutablePointer<UInt32> { state + 18 }

    @inline(__always)
    private func f(_ x: UInt32) -> UInt32 {
        let a = s[Int(x >> 24)], b = s[256 + Int((x >> 16) & 0xFF)]
        let c = s[512 + Int((x >> 8) & 0xFF)], d = s[768 + Int(x & 0xFF)]
        return ((a &+ b) ^ c) &+ d
    }

    /// Encrypts one 64-bit block given as two big-endian halves.
    func encrypt(_ left: inout UInt32, _ right: inout UInt32) {
        var l = left, r = right
        var round = 0
        while round < 16 {
            l ^= p[round]
            r ^= f(l)
            swap(&l, &r)
            round += 1
        }
        swap(&l, &r)
        r ^= p[16]
        l ^= p[17]
        left = l
        right = r
    }

    /// The next 32-bit big-endian word of `data`, wrapping around at its end.
    static func streamWord(_ data: UnsafeBufferPointer<UInt8>, _ position: inout Int) -> UInt32 {
        var word: UInt32 = 0
        for _ in 0..<4 {
            if position >= data.count { position = 0 }
            word = (word << 8) | UInt32(data[position])
            position += 1
        }
        return word
    }

    /// Eksblowfish's ExpandState(state, salt, key): mixes the key into P, then re-encrypts the
    /// whole state with the salt folded in.
    func expandState(salt: [UInt8], key: [UInt8]) {
        key.withUnsafeBufferPointer { xorKey($0) }
        salt.withUnsafeBufferPointer { salt in
            var position = 0
            var l: UInt32 = 0, r: UInt32 = 0
            var index = 0
            while index < Self.wordCount {
                l ^= Self.streamWord(salt, &position)
                r ^= Self.streamWord(salt, &position)
                encrypt(&l, &r)
                state[index] = l
                state[index + 1] = r
                index += 2
            }
        }
    }

    /// Eksblowfish's ExpandState(state, 0, key): as `expandState` with an all-zero salt.
    func expand0State(key: [UInt8]) {
        key.withUnsafeBufferPointer { xorKey($0) }
        var l: UInt32 = 0, r: UInt32 = 0
        var index = 0
        while index < Self.wordCount {
            encrypt(&l, &r)
            state[index] = l
            state[index + 1] = r
            index += 2
        }
    }

    private func xorKey(_ key: UnsafeBufferPointer<UInt8>) {
        var position = 0
        for index in 0..<18 { p[index] ^= Self.streamWord(key, &position) }
    }
}
