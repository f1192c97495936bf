"""Writes a few small .ipa-shaped zips (stored, deflated, zip64) into the folder given, as fuzz seeds."""
import io, os, plistlib, sys, zipfile

folder = sys.argv[1]
os.makedirs(folder, exist_ok=True)
info = {"CFBundleIdentifier": "com.example.app", "CFBundleShortVersionString": "1.2.0", "CFBundleVersion": "42",
        "CFBundleSupportedPlatforms": ["iPhoneOS"]}
for name, fmt, method, force64 in [("xml-deflated", plistlib.FMT_XML, zipfile.ZIP_DEFLATED, False),
                                   ("binary-stored", plistlib.FMT_BINARY, zipfile.ZIP_STORED, False),
                                   ("zip64", plistlib.FMT_XML, zipfile.ZIP_DEFLATED, True)]:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        with archive.open(zipfile.ZipInfo("Payload/Example.app/Info.plist"), "w", force_zip64=force64) as entry:
            entry.write(plistlib.dumps(info, fmt=fmt))
        archive.writestr("Payload/Example.app/Example", b"\x7fELF" + bytes(range(64)), method)
    with open(os.path.join(folder, name + ".ipa"), "wb") as out:
        out.write(buffer.getvalue())
