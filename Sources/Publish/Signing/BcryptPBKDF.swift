import Crypto

/// OpenBSD's bcrypt_pbkdf: PBKDF2's structure with SHA-512 and, as the inner function, a
/// bcrypt-style hash over eksblowfish. signify and OpenSSH encrypt secret keys with it.
///
/// For each output block `count` (1, 2, ...): SHA-512 the passphrase and salt‖count, run
/// `bcryptHash` `rounds` times chaining through SHA-512 and XOR the results; the blocks' bytes
/// are then interleaved across the key (byte `i` of block `count` lands at `i * stride +
/// count - 1`), so that every block is needed for any prefix of the key.
enum BcryptPBKDF {
    /// bcrypt_hash's output size.
    private static let hashLength = 32
    /// The text bcrypt_hash encrypts.
    private static let magic = Array("OxychromaticBlowfishSwatDynamite".utf8)

    /// `length` bytes derived from `passphrase` and `salt` with `rounds` rounds.
    /// - Precondition-free: returns nil for rounds < 1, an empty salt or a length outside 1...1024.
    static func deriveKey(passphrase: [UInt8], salt: [UInt8], rounds: Int, length: Int) -> [UInt8]? {
        guard rounds >= 1, !salt.isEmpty, (1...hashLength * hashLength).contains(length) else { return nil }
        let stride = (length + hashLength - 1) / hashLength
        let amount = (length + stride - 1) / stride
        let passwordHash = Array(SHA512.hash(data: passphrase))
        var key = [UInt8](repeating: 0, count: length)
        var remaining = length
        var count: UInt32 = 1
        while remaining > 0 {
            var countSalt = salt
            countSalt += [UInt8(count >> 24), UInt8((count >> 16) & 0xFF), UInt8((count >> 8) & 0xFF), UInt8(count & 0xFF)]
            var block = bcryptHash(passwordHash: passwordHash, saltHash: Array(SHA512.hash(data: countSalt)))
            var output = block
            for _ in 1..<rounds {
                block = bcryptHash(passwordHash: passwordHash, saltHash: Array(SHA512.hash(data: block)))
                for index in 0..<hashLength { output[index] ^= block[index] }
            }
            var taken = 0
            while taken < min(amount, remaining) {
                let destination = taken * stride + Int(count - 1)
                if destination >= length { break }
                key[destination] = output[taken]
                taken += 1
            }
            remaining -= taken
            count += 1
        }
        return key
    }

    /// bcrypt_hash: eksblowfish keyed by both hashes (64 rounds of alternating expansion),
    /// then the magic text encrypted 64 times; the words come out little-endian.
    static func bcryptHash(passwordHash: [UInt8], saltHash: [UInt8]) -> [UInt8] {
        let cipher = Blowfish()
        cipher.expandState(salt: saltHash, key: passwordHash)
        for _ in 0..<64 {
            cipher.expand0State(key: saltHash)
            cipher.expand0State(key: passwordHash)
        }
        var words = [UInt32](repeating: 0, count: 8)
        magic.withUnsafeBufferPointer { text in
            var position = 0
            for index in 0..<8 { words[index] = Blowfish.streamWord(text, &position) }
        }
        for _ in 0..<64 {
            for index in Swift.stride(from: 0, to: 8, by: 2) {
                var left = words[index], right = words[index + 1]
                cipher.encrypt(&left, &right)
                words[index] = left
                words[index + 1] = right
            }
        }
        var result: [UInt8] = []
        result.reserveCapacity(hashLength)
        for word in words {
            result += [UInt8(word & 0xFF), UInt8((word >> 8) & 0xFF), UInt8((word >> 16) & 0xFF), UInt8(word >> 24)]
        }
        return result
    }
}
