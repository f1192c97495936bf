// swift-tools-version:6.0
// A tiny package that the quick start releases with Slipway.
import PackageDescription

let package = Package(
    name: "hello",
    targets: [
        .target(name: "Greeting"),
        .executableTarget(name: "hello", dependencies: ["Greeting"]),
        .testTarget(name: "helloTests", dependencies: ["Greeting"]),
    ]
)
