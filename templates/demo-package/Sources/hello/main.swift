import Greeting

print(greeting(for: CommandLine.arguments.dropFirst().first ?? "world"))
