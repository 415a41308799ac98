import BazaarApp

/// `bazaar`, the app on the terminal and in the browser: everything is in `BazaarApp`.
@main
enum BazaarMain {
    static func main() async {
        await BazaarCommand.main()
    }
}
