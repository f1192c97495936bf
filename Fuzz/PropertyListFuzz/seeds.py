"""Writes a few small property lists (XML and binary) into the folder given, as fuzz seeds."""
import datetime, os, plistlib, struct, sys

folder = sys.argv[1]
os.makedirs(folder, exist_ok=True)
info = {"CFBundleIdentifier": "com.example.app", "CFBundleShortVersionString": "1.2.0", "CFBundleVersion": "42",
        "CFBundleSupportedPlatforms": ["iPhoneOS"], "LSRequiresIPhoneOS": True, "UIDeviceFamily": [1, 2]}
everything = {"s": "héllo ☺ <&>", "i": -5, "big": 2**40, "r": 1.25, "t": True, "f": False,
              "d": datetime.datetime(2024, 2, 29, 12, 34, 56), "data": b"\x00\x01\x02" * 5,
              "a": ["a", "a", [1, {"x": "y"}]], "e": {}, "ea": []}
export = {"method": "app-store-connect", "teamID": "ABCDE12345", "uploadSymbols": True,
          "provisioningProfiles": {"com.example.app": "Example App Store"}}
for name, value in [("info", info), ("everything", everything), ("export", export)]:
    for fmt, suffix in [(plistlib.FMT_XML, "xml"), (plistlib.FMT_BINARY, "bin")]:
        with open(os.path.join(folder, f"{name}-{suffix}.plist"), "wb") as out:
            out.write(plistlib.dumps(value, fmt=fmt))

# A binary plist with shared references: 4 levels of arrays, each referring 3 times to the one below.
objects = [b"\x10\x07"] + [bytes([0xA3, k - 1, k - 1, k - 1]) for k in range(1, 5)]
data = bytearray(b"bplist00")
offsets = []
for item in objects:
    offsets.append(len(data))
    data += item
table = len(data)
data += bytes(offsets) + b"\x00" * 6 + bytes([1, 1]) + struct.pack(">QQQ", len(objects), len(objects) - 1, table)
with open(os.path.join(folder, "shared.plist"), "wb") as out:
    out.write(data)
with open(os.path.join(folder, "entities.plist"), "wb") as out:
    out.write(b'<?xml version="1.0"?><!-- c --><plist version="1.0"><dict><key>a&amp;b</key>'
              b'<string>&#x263A;<![CDATA[<x>]]>&lt;</string><key>n</key><integer>0x1F</integer></dict></plist>')
