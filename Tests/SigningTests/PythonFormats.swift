import Foundation
import TestSupport

/// An independent implementation of the two file formats in Python (hashlib and the
/// `cryptography` package), written from their descriptions: fastlane's
/// match/lib/match/encryption/encryption.rb for match, docs/signing.md for Slipway's.
enum PythonFormats {
    static let script = #"""
import base64, hashlib, os, sys
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes
from cryptography.hazmat.primitives import padding

def match_material(password, salt):
    d = hashlib.pbkdf2_hmac("sha256", password, salt, 10000, 68)
    return d[:32], d[32:44], d[44:68]

def match_encrypt(data, password):
    salt = os.urandom(8)
    key, iv, aad = match_material(password, salt)
    sealed = AESGCM(key).encrypt(iv, data, aad)          # ciphertext || tag
    raw = b"match_encrypted_v2__" + salt + sealed[-16:] + sealed[:-16]
    return base64.encodebytes(raw)                       # 76-column lines; match reads any base64

def match_decrypt(text, password):
    raw = base64.b64decode(b"".join(text.split()))
    assert raw.startswith(b"match_encrypted_v2__"), "not v2"
    salt, tag, body = raw[20:28], raw[28:44], raw[44:]
    key, iv, aad = match_material(password, salt)
    return AESGCM(key).decrypt(iv, body + tag, aad)

def evp_bytes_to_key(password, salt):
    out, prev = b"", b""
    while len(out) < 48:
        prev = hashlib.md5(prev + password + salt).digest()
        out += prev
    return out[:32], out[32:48]

def match_v1_encrypt(data, password):
    salt = os.urandom(8)
    key, iv = evp_bytes_to_key(password, salt)
    padder = padding.PKCS7(128).padder()
    enc = Cipher(algorithms.AES(key), modes.CBC(iv)).encryptor()
    body = enc.update(padder.update(data) + padder.finalize()) + enc.finalize()
    return base64.encodebytes(b"Salted__" + salt + body)

def slipway_decrypt(raw, password):
    assert raw[:8] == b"SLPWSIGN" and raw[8] == 1 and raw[9] == 1
    n, r, p = 1 << raw[10], int.from_bytes(raw[11:13], "big"), int.from_bytes(raw[13:15], "big")
    salt, nonce, check = raw[15:31], raw[31:43], raw[43:59]
    d = hashlib.scrypt(password, salt=salt, n=n, r=r, p=p, maxmem=256 * 1024 * 1024, dklen=48)
    assert d[32:48] == check, "wrong passphrase"
    return AESGCM(d[:32]).decrypt(nonce, raw[59:], raw[:59])

command, path, password = sys.argv[1], sys.argv[2], sys.argv[3].encode()
data = open(path, "rb").read()
out = {"match-encrypt": lambda: match_encrypt(data, password),
       "match-v1-encrypt": lambda: match_v1_encrypt(data, password),
       "match-decrypt": lambda: match_decrypt(data, password),
       "slipway-decrypt": lambda: slipway_decrypt(data, password)}[command]()
sys.stdout.buffer.write(out)
"""#

    struct Failed: Error, CustomStringConvertible {
        let description: String
    }

    /// Runs the script with `arguments` and returns what it printed.
    static func run(_ arguments: [String], in folder: TemporaryDirectory) throws -> [UInt8] {
        let scriptPath = folder.path + "/formats.py"
        try script.write(toFile: scriptPath, atomically: true, encoding: .utf8)
        let output = folder.path + "/python-output.bin"
        let shell = "python3 \"$@\" > '\(output)'"
        let result = try CommandResult.run("/bin/sh", ["-c", shell, "sh", scriptPath] + arguments)
        guard result.status == 0 else { throw Failed(description: "python3 failed: \(result.standardError)") }
        return Array(try Data(contentsOf: URL(fileURLWithPath: output)))
    }
}
