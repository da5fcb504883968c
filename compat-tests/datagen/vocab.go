package datagen

// Fixed vocabularies of the TPC-H specification (clause 4.2.2.13 and
// 4.2.3). They are read-only.

// regionNames are the five regions, keyed 0 to 4.
var regionNames = [...]string{"AFRICA", "AMERICA", "ASIA", "EUROPE", "MIDDLE EAST"}

// nations are the 25 nations, keyed 0 to 24, with their region.
var nations = [...]struct {
	name   string
	region int32
}{
	{"ALGERIA", 0}, {"ARGENTINA", 1}, {"BRAZIL", 1}, {"CANADA", 1}, {"EGYPT", 4},
	{"ETHIOPIA", 0}, {"FRANCE", 3}, {"GERMANY", 3}, {"INDIA", 2}, {"INDONESIA", 2},
	{"IRAN", 4}, {"IRAQ", 4}, {"JAPAN", 2}, {"JORDAN", 4}, {"KENYA", 0},
	{"MOROCCO", 0}, {"MOZAMBIQUE", 0}, {"PERU", 1}, {"CHINA", 2}, {"ROMANIA", 3},
	{"SAUDI ARABIA", 4}, {"VIETNAM", 2}, {"RUSSIA", 3}, {"UNITED KINGDOM", 3}, {"UNITED STATES", 1},
}

// partColors are the words p_name is made of.
var partColors = [...]string{
	"almond", "antique", "aquamarine", "azure", "beige", "bisque", "black", "blanched", "blue",
	"blush", "brown", "burlywood", "burnished", "chartreuse", "chiffon", "chocolate", "coral",
	"cornflower", "cornsilk", "cream", "cyan", "dark", "deep", "dim", "dodger", "drab", "firebrick",
	"floral", "forest", "frosted", "gainsboro", "ghost", "goldenrod", "green", "grey", "honeydew",
	"hot", "indian", "ivory", "khaki", "lace", "lavender", "lawn", "lemon", "light", "lime", "linen",
	"magenta", "maroon", "medium", "metallic", "midnight", "mint", "misty", "moccasin", "navajo",
	"navy", "olive", "orange", "orchid", "pale", "papaya", "peach", "peru", "pink", "plum", "powder",
	"puff", "purple", "red", "rose", "rosy", "royal", "saddle", "salmon", "sandy", "seashell",
	"sienna", "sky", "slate", "smoke", "snow", "spring", "steel", "tan", "thistle", "tomato",
	"turquoise", "violet", "wheat", "white", "yellow",
}

// p_type is one word of each syllable list.
var (
	typeSyllable1 = [...]string{"STANDARD", "SMALL", "MEDIUM", "LARGE", "ECONOMY", "PROMO"}
	typeSyllable2 = [...]string{"ANODIZED", "BURNISHED", "PLATED", "POLISHED", "BRUSHED"}
	typeSyllable3 = [...]string{"TIN", "NICKEL", "BRASS", "STEEL", "COPPER"}
)

// p_container is one word of each list.
var (
	containerSyllable1 = [...]string{"SM", "LG", "MED", "JUMBO", "WRAP"}
	containerSyllable2 = [...]string{"CASE", "BOX", "BAG", "JAR", "PKG", "PACK", "CAN", "DRUM"}
)

var (
	marketSegments   = [...]string{"AUTOMOBILE", "BUILDING", "FURNITURE", "MACHINERY", "HOUSEHOLD"}
	orderPriorities  = [...]string{"1-URGENT", "2-HIGH", "3-MEDIUM", "4-NOT SPECIFIED", "5-LOW"}
	shipInstructions = [...]string{"DELIVER IN PERSON", "COLLECT COD", "NONE", "TAKE BACK RETURN"}
	shipModes        = [...]string{"REG AIR", "AIR", "RAIL", "SHIP", "TRUCK", "MAIL", "FOB"}
)

// Word classes the comment text pool is made of (after the
// specification's grammar, clause 4.2.2.14).
var (
	poolNouns = [...]string{
		"foxes", "ideas", "theodolites", "pinto beans", "instructions", "dependencies", "excuses",
		"platelets", "asymptotes", "courts", "dolphins", "multipliers", "sauternes", "warthogs",
		"frets", "dinos", "attainments", "somas", "Tiresias'", "patterns", "forges", "braids",
		"hockey players", "frays", "warhorses", "dugouts", "notornis", "epitaphs", "pearls",
		"tithes", "waters", "orbits", "gifts", "sheaves", "depths", "sentiments", "decoys",
		"realms", "pains", "grouches", "escapades", "accounts", "deposits", "packages", "requests",
		"packages", "theodolites", "requests",
	}
	poolVerbs = [...]string{
		"sleep", "wake", "are", "cajole", "haggle", "nag", "use", "boost", "affix", "detect",
		"integrate", "maintain", "nod", "was", "lose", "sublate", "solve", "thrash", "promise",
		"engage", "hinder", "print", "x-ray", "breach", "eat", "grow", "impress", "mold", "poach",
		"serve", "run", "dazzle", "snooze", "doze", "unwind", "kindle", "play", "hang", "believe",
		"doubt",
	}
	poolAdjectives = [...]string{
		"furious", "sly", "careful", "blithe", "quick", "fluffy", "slow", "quiet", "ruthless",
		"thin", "close", "dogged", "daring", "brave", "stealthy", "permanent", "enticing", "idle",
		"busy", "regular", "final", "ironic", "even", "bold", "silent", "special", "pending",
		"express", "unusual",
	}
	poolAdverbs = [...]string{
		"sometimes", "always", "never", "furiously", "slyly", "carefully", "blithely", "quickly",
		"fluffily", "slowly", "quietly", "ruthlessly", "thinly", "closely", "doggedly", "daringly",
		"bravely", "stealthily", "permanently", "enticingly", "idly", "busily", "regularly",
		"finally", "ironically", "evenly", "boldly", "silently",
	}
	poolPrepositions = [...]string{
		"about", "above", "according to", "across", "after", "against", "along", "alongside of",
		"among", "around", "at", "atop", "before", "behind", "beneath", "beside", "besides",
		"between", "beyond", "by", "despite", "during", "except", "for", "from", "in place of",
		"inside", "instead of", "into", "near", "of", "on", "outside", "over", "past", "since",
		"through", "throughout", "to", "toward", "under", "until", "up", "upon", "without", "with",
		"within",
	}
	poolTerminators = [...]string{".", ";", ":", "?", "!", "--"}
)
