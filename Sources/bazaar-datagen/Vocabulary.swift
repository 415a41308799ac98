/// The word lists generated listings are made of: categories of items with the adjectives,
/// details and accessories that go with them, and sentences for descriptions.
enum Vocabulary {
    /// A kind of goods: its items (weighted by repetition), adjectives and details.
    struct Category {
        let items: [String]
        let adjectives: [String]
        let details: [String]
        let accessories: [String]
    }

    static let categories: [Category] = [
        Category(
            items: [
                "road bike", "mountain bike", "city bike", "kids bike", "e-bike", "bike helmet", "bike pump",
                "cargo bike",
                "tandem", "bike trailer",
            ],
            adjectives: [
                "lightweight", "aluminium", "carbon", "steel", "vintage", "folding", "electric", "red", "blue", "black",
            ],
            details: ["54 cm frame", "21 gears", "new tyres", "barely ridden", "size M", "with lights", "disc brakes"],
            accessories: ["a lock", "mudguards", "a rear rack", "two bottle cages", "a spare tube"]),
        Category(
            items: [
                "dining table", "coffee table", "desk", "office chair", "armchair", "sofa", "bookshelf", "wardrobe",
                "floor lamp", "desk lamp", "bed frame", "chest of drawers", "mirror", "rug",
            ],
            adjectives: [
                "oak", "pine", "walnut", "teak", "mid-century", "Scandinavian", "vintage", "modern", "velvet",
                "leather",
            ],
            details: [
                "seats 6", "180 x 90 cm", "extendable", "needs varnish", "solid wood", "flat-packed", "two drawers",
            ],
            accessories: [
                "the original screws", "four chairs", "a glass top", "matching cushions", "the assembly guide",
            ]),
        Category(
            items: [
                "laptop", "phone", "tablet", "camera", "headphones", "speaker", "monitor", "keyboard", "game console",
                "turntable", "amplifier", "e-reader",
            ],
            adjectives: [
                "wireless", "refurbished", "unlocked", "mechanical", "noise-cancelling", "4K", "compact", "silver",
            ],
            details: ["128 GB", "battery holds a day", "screen like new", "boxed", "UK plug", "two controllers"],
            accessories: ["the charger", "a case", "the original box", "a spare battery", "two games"]),
        Category(
            items: [
                "winter jacket", "rain coat", "hiking boots", "running shoes", "jeans", "wool jumper", "dress",
                "leather bag",
                "scarf", "sunglasses",
            ],
            adjectives: [
                "waterproof", "wool", "linen", "denim", "designer", "handmade", "size 38", "size L", "green", "navy",
            ],
            details: ["worn twice", "never worn", "tags on", "small mark on the sleeve", "fits small"],
            accessories: ["a dust bag", "spare laces", "the receipt"]),
        Category(
            items: [
                "acoustic guitar", "electric guitar", "piano", "keyboard stand", "violin", "drum kit", "ukulele",
                "trumpet",
                "microphone",
            ],
            adjectives: [
                "beginner", "student", "professional", "vintage", "left-handed", "Yamaha", "Fender", "digital",
            ],
            details: ["recently tuned", "new strings", "88 keys", "full size", "some wear on the body"],
            accessories: ["a hard case", "a stand", "a tuner", "a strap", "spare strings"]),
        Category(
            items: [
                "tent", "sleeping bag", "backpack", "skis", "snowboard", "tennis racket", "yoga mat", "kayak",
                "dumbbells",
                "treadmill", "climbing shoes",
            ],
            adjectives: ["two-person", "ultralight", "carbon", "adjustable", "inflatable", "junior", "pro"],
            details: ["used one season", "60 litres", "20 kg pair", "size 42", "freshly waxed"],
            accessories: ["a carry bag", "poles", "the pump", "a repair kit"]),
        Category(
            items: [
                "cookbook", "novel", "children's books", "comic collection", "encyclopedia set", "vinyl records",
                "board game",
                "jigsaw puzzle",
            ],
            adjectives: ["first edition", "signed", "illustrated", "complete", "rare", "hardback", "paperback"],
            details: ["1000 pieces", "all pieces present", "box of 30", "1970s", "English and French"],
            accessories: ["a bookmark", "the dust jacket", "a record crate"]),
        Category(
            items: [
                "espresso machine", "stand mixer", "blender", "toaster", "cast iron pan", "dinner set", "knife set",
                "slow cooker", "kettle",
            ],
            adjectives: ["stainless", "enamel", "ceramic", "Italian", "cordless", "retro", "copper"],
            details: ["descaled", "12 pieces", "5 litres", "works perfectly", "used a handful of times"],
            accessories: ["the milk jug", "spare filters", "the manual", "a knife block"]),
        Category(
            items: [
                "lawn mower", "garden chairs", "barbecue", "plant pots", "hedge trimmer", "greenhouse", "watering can",
                "wheelbarrow",
            ],
            adjectives: ["petrol", "cordless", "terracotta", "weatherproof", "teak", "foldable", "large"],
            details: ["set of 4", "starts first pull", "charcoal", "3 x 2 m", "some rust"],
            accessories: ["the cover", "a spare blade", "two batteries"]),
    ]

    /// Items rare enough for a "rare word" search: roughly one listing in fifty thousand.
    static let rareItems = [
        "theodolite", "harpsichord", "sextant", "astrolabe", "zither", "hurdy-gurdy", "orrery", "pianola",
    ]

    /// Sentences a description is built from; `{x}` is replaced.
    static let conditions = [
        "In good condition.", "Very good condition, light signs of use.", "Like new.", "Well used but works.",
        "Some scratches, see photos.", "Never used, still boxed.",
    ]
    static let stories = [
        "Selling because we are moving.", "Bought last year, no longer needed.", "Clearing out the attic.",
        "Upgraded to a newer one.", "Gift that was never used.", "Downsizing the flat.",
    ]
    static let pickups = [
        "Pick up in {city}.", "Can post within the country.", "Collection only, {city} centre.",
        "Happy to meet halfway near {city}.",
    ]
    static let cities = ["Berlin", "Lyon", "Porto", "Leeds", "Utrecht", "Turin", "Gdansk", "Ghent", "Aarhus", "Graz"]
    static let firstNames = [
        "Ada", "Ben", "Cyd", "Dora", "Eli", "Fia", "Gus", "Hana", "Ivo", "Jun", "Kai", "Lea", "Mo", "Nia",
    ]
    static let messages = [
        "Hi! Is it still available?", "Yes, it is.", "Would you take {price}?",
        "I could do a bit less if you pick up today.",
        "Great, when can I come?", "Tomorrow after six works.", "Does it come with {accessory}?", "It does.",
        "Could you send another photo?", "Sure, sending now.", "Deal. See you then!", "Thanks, see you!",
    ]
}
