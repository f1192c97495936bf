import SlipwayCLI

@main
enum Entrypoint {
    static func main() async {
        await SlipwayCommand.start()
    }
}
