// libFuzzer entry point for the PKCS#12 (.p12) reader (built by scripts/fuzz.sh p12).
//
// Each input is a .p12 file, as `push check`, `signing push add` and a signing storage read from
// a checkout or a storage an attacker may write. Besides "no crash, no hang, no unbounded memory"
// (libFuzzer's -timeout and -rss_limit_mb: the key-derivation budget keeps every input well under
// the timeout), it checks the reader's promises:
// - a file is either read or refused with a `SigningCertificateError` (never another error);
// - reading the same bytes twice gives the same verdict (no hidden state): the same identity, or
//   the same kind of refusal (a refusal may quote the crypto library's error code, which carries
//   its thread's earlier errors, so the message itself may differ);
// - a file read with the seeds' password has exactly one key, and a certificate that matches it.
import Foundation
import Signing

@_cdecl("LLVMFuzzerTestOneInput")
public func pkcs12FuzzTestOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let first = verdict(bytes)
    let second = verdict(bytes)
    if first != second { fatalError("fuzz: the same bytes read twice gave two verdicts: \(first) / \(second)") }
    return 0
}

/// "read <certificate fingerprint>" or the kind of refusal (its case).
func verdict(_ bytes: [UInt8]) -> String {
    do {
        let identity = try SigningIdentity(pkcs12: bytes, password: "fuzz", file: "fuzz.p12")
        return "read \(identity.certificate.sha1Fingerprint)"
    } catch let error as SigningCertificateError {
        guard let message = error.errorDescription, !message.isEmpty else { fatalError("fuzz: an error without a message") }
        return "refused: " + (Mirror(reflecting: error).children.first?.label ?? message)
    } catch {
        fatalError("fuzz: the reader threw something other than SigningCertificateError: \(error)")
    }
}

// SwiftPM links an executable target's `main` to `<Target>_main`; with `-parse-as-library` there
// is none, so this one hands the command line to libFuzzer's driver.
@_silgen_name("LLVMFuzzerRunDriver")
func runFuzzerDriver(
    _ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>, Int) -> CInt) -> CInt

@_cdecl("PKCS12Fuzz_main")
public func pkcs12FuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    var count = argc
    var arguments = argv
    return runFuzzerDriver(&count, &arguments) { data, size in pkcs12FuzzTestOneInput(data, size) }
}
