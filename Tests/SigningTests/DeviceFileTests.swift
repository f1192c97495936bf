import Basics
import Foundation
import Signing
import Testing
import TestSupport
import TestThreads

/// The devices file of Apple's portal and register_devices: every line checked, every problem reported at once.
@Suite("Devices file", .dedicatedThreads)
struct DeviceFileTests {
    @Test func readsApplesFormatWithAndWithoutThePlatformColumn() throws {
        let text = "\u{FEFF}Device ID\tDevice Name\tDevice Platform\r\n"
            + "# the team's phones\r\n"
            + "00008030-001A2B3C4D5E6F70\tAlice's iPhone\tios\r\n"
            + "\r\n"
            + "A1B2C3D4E5F60718293A4B5C6D7E8F9012345678\tOld iPad\t\r\n"
            + "5D4C3B2A-1F0E-4D3C-8B2A-1F0E9D8C7B6A\tBuild Mac\tmac\r\n"
        let entries = try DeviceFile.parse(text, file: "devices.txt", defaultPlatform: "IOS")
        #expect(entries == [
            DeviceEntry(udid: "00008030-001A2B3C4D5E6F70", name: "Alice's iPhone", platform: "IOS", location: "devices.txt:3"),
            DeviceEntry(udid: "A1B2C3D4E5F60718293A4B5C6D7E8F9012345678", name: "Old iPad", platform: "IOS", location: "devices.txt:5"),
            DeviceEntry(udid: "5D4C3B2A-1F0E-4D3C-8B2A-1F0E9D8C7B6A", name: "Build Mac", platform: "MAC_OS", location: "devices.txt:6"),
        ])
        let two = try DeviceFile.parse("Device ID\tDevice Name\n00008030-001A2B3C4D5E6F70\tPhone\n", file: "d.txt", defaultPlatform: "MAC_OS")
        #expect(two.map(\.platform) == ["MAC_OS"])
    }

    @Test func reportsEveryProblemWithItsLine() throws {
        let text = "Device ID\tDevice Name\tDevice Platform\n"
            + "00008030-001A2B3C4D5E6F70 Alice's iPhone\n"
            + "0000803-001A2B3C4D5E6F70\tShort UDID\n"
            + "00008030-001A2B3C4D5E6F71\t\n"
            + "00008030-001A2B3C4D5E6F72\t" + String(repeating: "n", count: 51) + "\n"
            + "00008030-001A2B3C4D5E6F73\tTV\ttvos\n"
            + "00008030-001a2b3c4d5e6f74\tFirst\n"
            + "00008030-001A2B3C4D5E6F74\tSame again\n"
            + "5D4C3B2A-1F0E-4D3C-8B2A-1F0E9D8C7B6A\tMac as iOS\tios\n"
            + "a\tb\tc\td\n"
        #expect(throws: DeviceInputError.invalidFile(file: "devices.txt", problems: [
            "devices.txt:2: no tab between the columns; separate the UDID, the name and the optional platform with tabs, not spaces",
            "devices.txt:3: '0000803-001A2B3C4D5E6F70' is not a device UDID: use the 40 hex characters of older devices, the newer form "
                + "00008030-001A2B3C4D5E6F70 (8 and 16 hex characters), or a Mac's hardware UUID (Finder, Xcode's Devices window or "
                + "System Information show it)",
            "devices.txt:4: the device name is empty; give each device a name",
            "devices.txt:5: the device name '\(String(repeating: "n", count: 51))' has 51 characters; shorten it to 50 or fewer",
            "devices.txt:6: the platform 'tvos' is not ios or mac",
            "devices.txt:8: the UDID '00008030-001A2B3C4D5E6F74' is listed already on line 7; keep one line per device",
            "devices.txt:9: '5D4C3B2A-1F0E-4D3C-8B2A-1F0E9D8C7B6A' is a Mac hardware UUID; give the platform mac (or --platform macos) "
                + "for a Mac, or the device's own UDID",
            "devices.txt:10: 4 columns; a line has the UDID, the name and optionally the platform (ios or mac)",
        ])) {
            try DeviceFile.parse(text, file: "devices.txt", defaultPlatform: "IOS")
        }
    }

    @Test func needsTheHeader() throws {
        #expect(throws: DeviceInputError.invalidFile(file: "d.txt", problems: [
            "d.txt:1: the first line must be the header 'Device ID<TAB>Device Name' (optionally followed by '<TAB>Device Platform'), "
                + "as in Apple's sample file; add it above the devices",
        ])) {
            try DeviceFile.parse("00008030-001A2B3C4D5E6F70\tPhone\n", file: "d.txt", defaultPlatform: "IOS")
        }
        #expect(throws: DeviceInputError.invalidFile(file: "d.txt", problems: [
            "d.txt: no devices: the file has no header and no device lines; see Apple's sample file",
        ])) {
            try DeviceFile.parse("# nothing\n\n", file: "d.txt", defaultPlatform: "IOS")
        }
    }

    @Test func readsABoundedFile() throws {
        let folder = try TemporaryDirectory(prefix: "slipway-devices-file")
        let big = try folder.write("big.txt", "Device ID\tDevice Name\n" + String(repeating: "#\n", count: DeviceFile.maximumBytes / 2))
        #expect(throws: DeviceInputError.tooLarge(file: "big.txt", limit: DeviceFile.maximumBytes)) {
            try DeviceFile.load(big, display: "big.txt", defaultPlatform: "IOS", fileSystem: LocalFileSystem())
        }
        #expect(throws: DeviceInputError.unreadable(file: "none.txt", reason: "there is no such file")) {
            try DeviceFile.load(folder.path + "/none.txt", display: "none.txt", defaultPlatform: "IOS", fileSystem: LocalFileSystem())
        }
        let binary = folder.path + "/binary.txt"
        try Data([0x44, 0xff, 0xfe, 0x0a]).write(to: URL(fileURLWithPath: binary))
        #expect(throws: DeviceInputError.invalidFile(file: "binary.txt", problems: ["binary.txt: the file is not UTF-8 text; save it as UTF-8"])) {
            try DeviceFile.load(binary, display: "binary.txt", defaultPlatform: "IOS", fileSystem: LocalFileSystem())
        }
    }
}
