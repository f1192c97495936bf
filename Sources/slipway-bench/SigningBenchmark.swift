import Foundation
import Signing

/// Issue 14's figures: scrypt at Slipway's default and neighbouring costs, match's PBKDF2, and
/// AES-256-GCM throughput of both file formats once the key is derived.
enum SigningBenchmark {
    static func run(_ arguments: [String]) async throws {
        let runs = Bench.option("--runs", arguments).flatMap(Int.init) ?? 5
        print("slipway-bench signing-kdf — medians of \(runs) runs")
        let salt = [UInt8](repeating: 7, count: 16)
        for logN in [UInt8(14), 15, 16] {
            let parameters = ScryptParameters(logN: logN, r: 8, p: 1)
            let seconds = try Bench.median(runs: runs) {
                _ = try Scrypt.derive(passphrase: Array("passphrase".utf8), salt: salt, parameters: parameters, length: 48)
            }
            let label = "scrypt N=2^\(logN) r=8 p=1 (\(parameters.memoryBytes >> 20) MiB)" + (parameters == .standard ? ", the default" : "")
            Bench.report(label, Bench.ms(seconds), target: parameters == .standard ? "100-300 ms" : "—")
        }
        let match = try MatchCipher(passphrase: "passphrase")
        let small = [UInt8](repeating: 1, count: 16)
        let pbkdf2 = try Bench.median(runs: runs) { _ = try match.encrypt(small) }
        Bench.report("match v2: PBKDF2 10k rounds, 16-byte file", Bench.ms(pbkdf2), target: "—")

        let payload = [UInt8](repeating: 0x5A, count: 16 << 20)
        let slipway = try SlipwayCipher(passphrase: "passphrase")
        _ = try slipway.encrypt(small)  // derive the key once, as a storage does
        var sealed: [UInt8] = []
        let encrypt = try Bench.median(runs: runs) { sealed = try slipway.encrypt(payload) }
        Bench.report("Slipway format: encrypt 16 MiB (key cached)", throughput(payload.count, encrypt), target: "—")
        let decrypt = try Bench.median(runs: runs) { _ = try slipway.decrypt(sealed, file: "bench") }
        Bench.report("Slipway format: decrypt 16 MiB (key cached)", throughput(payload.count, decrypt), target: "—")
        var matchSealed: [UInt8] = []
        let matchEncrypt = try Bench.median(runs: runs) { matchSealed = try match.encrypt(payload) }
        Bench.report("match v2: encrypt + base64 16 MiB", throughput(payload.count, matchEncrypt), target: "—")
        let matchDecrypt = try Bench.median(runs: runs) { _ = try match.decrypt(matchSealed, file: "bench") }
        Bench.report("match v2: base64 + decrypt 16 MiB", throughput(payload.count, matchDecrypt), target: "—")
    }

    static func throughput(_ bytes: Int, _ seconds: Double) -> String {
        String(format: "%.0f MB/s (%.1f ms)", Double(bytes) / seconds / 1_000_000, seconds * 1000)
    }
}
