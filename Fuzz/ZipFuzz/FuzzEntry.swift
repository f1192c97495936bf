// libFuzzer entry point for the .ipa (zip) reader and the Info.plist read through it.
//
// Compiled together with Sources/Archives/Zip/ZipDirectory.swift, ZipSource.swift and
// Sources/PropertyList/*.swift into one module by `scripts/fuzz.sh zip` (zlib through
// Sources/CZlib's module map). It walks the archive the way IPAInfo does: directory, total size,
// layout, then every entry's contents, and the Info.plist's property list. Besides "no crash, no
// hang, no sanitizer report", it checks the reader's promises:
// - an entry's contents are never larger than the entry claims (nor than the limits);
// - a layout that passes `checkLayout` has every entry before the directory, none overlapping;
// - reading the same bytes twice gives the same entries and contents.

@_cdecl("LLVMFuzzerTestOneInput")
public func zipFuzzTestOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let limits = ZipDirectory.Limits(maxEntries: 10_000, maxDirectoryBytes: 1 << 20, maxEntryBytes: 1 << 20)
    guard let zip = try? ZipDirectory(bytes: bytes, limits: limits) else { return 0 }
    guard zip.entries.count <= 10_000, zip.directoryOffset <= UInt64(size) else {
        fatalError("fuzz: the directory claims more than the limits allow")
    }
    _ = try? zip.totalUncompressedSize()
    let laidOut = (try? zip.checkLayout()) != nil
    if laidOut {
        for entry in zip.entries {
            let (end, overflow) = entry.localHeaderOffset.addingReportingOverflow(30 + UInt64(entry.nameLength) + entry.compressedSize)
            if overflow || end > zip.directoryOffset { fatalError("fuzz: checkLayout passed an entry past the directory") }
        }
    }
    var contents: [[UInt8]?] = []
    for entry in zip.entries.prefix(64) {
        let read = try? zip.contents(of: entry)
        if let read, UInt64(read.count) != entry.uncompressedSize || read.count > 1 << 20 {
            fatalError("fuzz: an entry's contents are \(read.count) bytes, it claims \(entry.uncompressedSize)")
        }
        contents.append(read)
        if entry.name.hasSuffix("Info.plist"), let read {
            _ = try? PropertyListReader().read(read, file: entry.name)
        }
    }
    guard let again = try? ZipDirectory(bytes: bytes, limits: limits), again.entries.map(\.name) == zip.entries.map(\.name) else {
        fatalError("fuzz: the same bytes read twice give different directories")
    }
    for (index, entry) in zip.entries.prefix(64).enumerated() where (try? again.contents(of: entry)) != contents[index] {
        fatalError("fuzz: the entry '\(entry.name)' reads differently the second time")
    }
    return 0
}
