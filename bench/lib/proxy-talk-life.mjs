/**
 * The word lists of the `talk` proxy source (proxy-talk.mjs): people, the facts of their lives they
 * mention once, the things that happen to them between chats (with a relative time: "yesterday", "last
 * weekend"), what the friend answers (often echoing without answering), and the questions a reader of
 * LoCoMo-like benchmarks asks: single-hop, multi-hop across sessions, temporal and open-ended.
 * `{name}` is the person asked about, `{his}`/`{he}`/`{him}` their pronouns, `{when}` a relative time,
 * `{x}` an event's own pick (from `x`), `{friend}` the other speaker.
 */

export const PEOPLE = [
  ['Caroline', 'f'],
  ['Melanie', 'f'],
  ['John', 'm'],
  ['Maria', 'f'],
  ['Deborah', 'f'],
  ['Jolene', 'f'],
  ['Evan', 'm'],
  ['Sam', 'm'],
  ['Calvin', 'm'],
  ['Dave', 'm'],
  ['Gina', 'f'],
  ['Jon', 'm'],
  ['Audrey', 'f'],
  ['Andrew', 'm'],
  ['James', 'm'],
  ['Tim', 'm'],
  ['Nate', 'm'],
  ['Joanna', 'f'],
  ['Priya', 'f'],
  ['Tomás', 'm'],
  ['Aisha', 'f'],
  ['Kenji', 'm'],
  ['Lena', 'f'],
  ['Omar', 'm'],
];

export const PRONOUNS = {
  f: { he: 'she', his: 'her', him: 'her' },
  m: { he: 'he', his: 'his', him: 'him' },
};

/** Facts of a person, said once in passing; `q` asks for them. */
export const FACTS = [
  {
    key: 'instrument',
    x: ['violin', 'clarinet', 'piano', 'cello', 'ukulele', 'drums', 'saxophone'],
    say: [
      "Honestly the {x} is what keeps me sane — I've played since I was nine and I still practice most evenings.",
      'I dusted off my {x} last night, my fingers were so rusty haha.',
    ],
    q: ['What instrument does {name} play?', 'Which instrument has {name} played since childhood?'],
  },
  {
    key: 'pet',
    x: ['Luna', 'Oliver', 'Bailey', 'Max', 'Pepper', 'Mochi', 'Biscuit'],
    say: [
      '{x} chewed through my charger cable this morning. That dog, I swear.',
      'I came home and {x} had pulled every sock out of the laundry basket. Dogs!',
    ],
    q: ["What is the name of {name}'s dog?", "What is {name}'s dog called?"],
  },
  {
    key: 'job',
    x: [
      'nurse',
      'high school teacher',
      'software engineer',
      'accountant',
      'physiotherapist',
      'graphic designer',
      'social worker',
    ],
    say: [
      'Being a {x} is rewarding but some days really drain me.',
      'Long shift today. People think being a {x} is easy, ha.',
    ],
    q: ['What does {name} do for a living?', "What is {name}'s profession?"],
  },
  {
    key: 'hometown',
    x: ['Minneapolis', 'a small town in Ohio', 'Sweden', 'Lagos', 'Manila', 'Glasgow'],
    say: [
      'I grew up in {x}, so this kind of winter feels like home to me.',
      'Back in {x}, where I grew up, we had a bakery on every corner.',
    ],
    q: ['Where did {name} grow up?', 'Where is {name} originally from?'],
  },
  {
    key: 'kids',
    x: ['Leo and Ava', 'Mia and Noah', 'Sophie and Grace', 'Ethan, Lily and Jack', 'Zoe and Sam'],
    say: [
      '{x} have been bouncing off the walls all week, school break is chaos.',
      'Had a quiet morning for once — {x} were at their grandma’s.',
    ],
    q: ["What are the names of {name}'s kids?", "What are {name}'s children called?"],
  },
  {
    key: 'partner',
    x: ['Daniel', 'Marco', 'Rachel', 'Chris', 'Ana', 'Ben'],
    say: [
      '{x} surprised me with breakfast in bed on Sunday, it was the sweetest thing.',
      'My partner {x} says hi, by the way!',
    ],
    q: ["What is the name of {name}'s partner?", 'Who is {name} married to?'],
  },
  {
    key: 'book',
    x: [
      '"Becoming" by Michelle Obama',
      '"The Night Circus"',
      '"Educated"',
      '"Dune"',
      '"Little Women"',
      '"The Alchemist"',
    ],
    say: [
      'I reread {x} over the holidays — still my favourite book ever.',
      'If I could only keep one book it would be {x}, no question.',
    ],
    q: ["What is {name}'s favorite book?", 'Which book does {name} love the most?'],
  },
  {
    key: 'allergy',
    x: ['peanuts', 'shellfish', 'cats', 'pollen', 'gluten'],
    say: [
      "I can't go near {x}, I'm allergic — found that out the hard way as a teenager.",
      'Had to skip the party snacks, allergic to {x} as usual ugh.',
    ],
    q: ['What is {name} allergic to?', 'Which allergy does {name} have?'],
  },
  {
    key: 'team',
    x: ['the Packers', 'Liverpool', 'the Lakers', 'the Yankees', 'Real Madrid'],
    say: [
      'Did you watch {x} last night? I was yelling at the TV the whole second half.',
      "Bought new jerseys for the whole family, we're {x} fans for life.",
    ],
    q: ['Which team does {name} support?', 'What sports team is {name} a fan of?'],
  },
  {
    key: 'language',
    x: ['Spanish', 'Japanese', 'Italian', 'Korean', 'French'],
    say: [
      "I'm on a 200-day streak learning {x}! Still can't order food without panicking though.",
      'Practiced my {x} with a waiter today and he answered in English haha.',
    ],
    q: ['What language is {name} learning?', 'Which foreign language is {name} studying?'],
  },
  {
    key: 'car',
    x: ['an old Subaru', 'a red Mini', 'a Prius', 'a used Tesla', 'a pickup truck'],
    say: [
      'My car — {x} — made a horrible noise on the highway. Fingers crossed it is nothing.',
      'Finally paid off {x}, it feels so good to own it.',
    ],
    q: ['What car does {name} drive?', 'What kind of vehicle does {name} own?'],
  },
  {
    key: 'dream',
    x: [
      'open a little bookshop',
      'write a novel',
      'sail around Greece',
      'run a marathon on every continent',
      'start an animal sanctuary',
    ],
    say: [
      'Someday I really want to {x}. It sounds silly, but it keeps me going.',
      'Can I tell you a secret? My big dream is to {x}.',
    ],
    q: ["What is {name}'s dream?", 'What does {name} hope to do someday?'],
  },
];

/**
 * Things that happen between chats: `say` (the telling, with `{when}`), `detail` (a later turn with
 * more), `echo` (the friend's answer), `single` (a question answered by the detail), `when` (the
 * question's verb phrase for "When did {name} …?"), `cats` (what a multi-hop question gathers).
 */
export const EVENTS = [
  {
    id: 'pottery',
    cats: ['kids', 'creative'],
    x: ['bowls', 'mugs', 'a vase'],
    say: ['I took the kids to a pottery workshop {when}, we got our hands so dirty!'],
    detail: ['We each made {x}. Mine is lopsided but I love it.'],
    echo: [
      'Pottery with the kids?? That sounds like so much fun! Did you make anything?',
      'Aww a pottery workshop, I always wanted to try that.',
    ],
    single: 'What did {name} make at the pottery workshop?',
    when: 'take {his} kids to a pottery workshop',
  },
  {
    id: 'camping',
    cats: ['outdoors', 'kids', 'travel'],
    x: ['Lake Tahoe', 'the Smoky Mountains', 'a lake up north', 'Yosemite'],
    say: ['We went camping {when}! First time with the whole family.'],
    detail: ['We camped at {x}. The kids roasted marshmallows and we saw the Milky Way.'],
    echo: [
      'Camping! I love that. How did the kids like sleeping in a tent?',
      'Oh wow, camping with the family, that must have been something.',
    ],
    single: 'Where did {name} go camping?',
    when: 'go camping with {his} family',
  },
  {
    id: 'support-group',
    cats: ['community', 'health'],
    x: ['LGBTQ', 'grief', 'new parents', 'cancer survivors'],
    say: ['I went to a {x} support group {when}. It was so powerful.'],
    detail: ['Hearing other people share their stories made me feel less alone. I think I will keep going.'],
    echo: [
      'That takes courage. How did it feel to be there?',
      'A support group, wow. I am really proud of you for going.',
    ],
    single: 'What kind of support group did {name} attend?',
    when: 'go to the support group',
  },
  {
    id: 'painting',
    cats: ['creative'],
    x: ['a sunset over the lake', 'our old house', 'a field of sunflowers', 'my dog sleeping'],
    say: ['I finished a painting {when}! It took me three weekends.'],
    detail: ['It is {x}, acrylics on a big canvas. Hanging it in the hallway.'],
    echo: ['You paint?! Send me a picture!', 'Three weekends, that is dedication. What is it of?'],
    single: 'What did {name} paint?',
    when: 'finish {his} painting',
  },
  {
    id: 'hike',
    cats: ['outdoors', 'health'],
    x: ['Mount Tam', 'the Appalachian Trail', 'a waterfall trail', 'the coastal path'],
    say: ['Did a long hike {when}, my legs are still sore.'],
    detail: ['We did {x}, about twelve miles. The view at the top was unreal.'],
    echo: ['Sore legs means it was a good one haha. Where did you go?', 'A long hike? You are so active lately.'],
    single: 'Where did {name} hike?',
    when: 'go on a long hike',
  },
  {
    id: 'shelter',
    cats: ['community', 'pets'],
    x: ['walking dogs', 'cleaning cat rooms', 'helping at adoption day'],
    say: ['I started volunteering at the animal shelter {when}.'],
    detail: ['Mostly {x} for now. There is one shy old dog who finally let me pet him.'],
    echo: [
      'The animal shelter, that is so you! What do you do there?',
      'Volunteering at a shelter sounds heartwarming and heartbreaking at once.',
    ],
    single: 'What does {name} do at the animal shelter?',
    when: 'start volunteering at the animal shelter',
  },
  {
    id: 'promotion',
    cats: ['career'],
    x: ['team lead', 'senior nurse', 'head of department', 'project manager'],
    say: ['Guess what — I got promoted {when}!'],
    detail: ['I am {x} now. More meetings, but I finally get a say in how things run.'],
    echo: ['Promoted!! Congratulations, you totally deserve it!', 'No way, a promotion? Tell me everything!'],
    single: "What is {name}'s new role after the promotion?",
    when: 'get promoted',
  },
  {
    id: 'marathon',
    cats: ['health', 'community'],
    x: ['children’s hospital', 'animal rescue', 'cancer research'],
    say: ['I ran a half marathon {when}, for charity!'],
    detail: ['We raised money for {x}. I walked a bit at mile ten, not gonna lie.'],
    echo: ['A half marathon?! I get tired walking to the fridge haha. Congrats!', 'For charity too, that is amazing.'],
    single: "Which cause did {name}'s half marathon support?",
    when: 'run the half marathon',
  },
  {
    id: 'museum',
    cats: ['kids', 'culture'],
    x: ['dinosaurs', 'the space exhibit', 'old Egyptian mummies'],
    say: ['Took the kids to the natural history museum {when}.'],
    detail: ['They spent an hour at {x} and did not want to leave.'],
    echo: ['Museum day! Were they bored or into it?', 'I loved museums as a kid, that is such a good outing.'],
    single: "What did {name}'s kids like most at the museum?",
    when: 'take {his} kids to the museum',
  },
  {
    id: 'cooking-class',
    cats: ['food', 'creative'],
    x: ['fresh pasta', 'sushi', 'Thai curry', 'French pastries'],
    say: ['I signed up for a cooking class and the first session was {when}.'],
    detail: ['We learned to make {x} from scratch. My kitchen is a disaster now.'],
    echo: ['A cooking class, fancy! What are you learning?', 'Ooh, you will have to cook for me sometime.'],
    single: 'What did {name} learn to make in the cooking class?',
    when: 'go to {his} first cooking class',
  },
  {
    id: 'adopt-cat',
    cats: ['pets'],
    x: ['Whiskers', 'Nala', 'Ginger', 'Shadow'],
    say: ['We adopted a kitten {when}! I could not resist.'],
    detail: ['Her name is {x}. She sleeps on my keyboard whenever I try to work.'],
    echo: ['A kitten!!! Pictures please!', 'Oh my gosh, what is her name?'],
    single: 'What is the name of the kitten {name} adopted?',
    when: 'adopt a kitten',
  },
  {
    id: 'concert',
    cats: ['culture'],
    x: ['Coldplay', 'a jazz trio', 'Taylor Swift', 'the symphony orchestra'],
    say: ['Went to a concert {when} and I still have the songs stuck in my head.'],
    detail: ['It was {x}. We were in the cheap seats but it did not matter.'],
    echo: ['A concert! Who did you see?', 'Live music is the best. Was it loud?'],
    single: 'Whose concert did {name} go to?',
    when: 'go to the concert',
  },
  {
    id: 'road-trip',
    cats: ['travel'],
    x: ['the Pacific coast', 'Route 66', 'the Scottish Highlands', 'the Canadian Rockies'],
    say: ['Just got back from a road trip {when}, eight days in the car!'],
    detail: ['We drove along {x}. Best part was a tiny diner in the middle of nowhere.'],
    echo: ['Eight days in a car, that is brave haha. Where did you go?', 'Road trips are so underrated.'],
    single: 'Where did {name} go on the road trip?',
    when: 'go on the road trip',
  },
  {
    id: 'wedding',
    cats: ['family'],
    x: ['sister', 'brother', 'best friend', 'cousin'],
    say: ["My {x}'s wedding was {when} — I cried through the whole ceremony."],
    detail: ['I gave a speech and somehow did not forget my lines.'],
    echo: ['A wedding! Were you part of the wedding party?', 'Aww, weddings make me cry too.'],
    single: 'Whose wedding did {name} attend?',
    when: 'attend the wedding',
  },
  {
    id: 'garden',
    cats: ['outdoors', 'food'],
    x: ['tomatoes and basil', 'strawberries', 'peppers and zucchini'],
    say: ['Spent {when} planting the vegetable garden.'],
    detail: ['This year it is {x}. Fingers crossed the squirrels leave them alone.'],
    echo: [
      'A vegetable garden, so wholesome. What are you growing?',
      'I kill every plant I touch, you have to teach me.',
    ],
    single: 'What is {name} growing in the garden?',
    when: 'plant the vegetable garden',
  },
  {
    id: 'interview',
    cats: ['career'],
    x: ['a hospital in the city', 'a startup downtown', 'the school district', 'a design agency'],
    say: ['I had a job interview {when}, I was shaking the whole time.'],
    detail: ['It was with {x}. They said they will let me know in two weeks.'],
    echo: ['An interview! How do you think it went?', 'Good luck!! Fingers crossed for you.'],
    single: 'Where did {name} interview for a job?',
    when: 'have the job interview',
  },
  {
    id: 'yoga',
    cats: ['health'],
    x: ['at sunrise in the park', 'at a studio near work', 'online with a friend'],
    say: ['I started doing yoga {when}, trying to take care of myself more.'],
    detail: ['I go {x}, three times a week so far.'],
    echo: ['Yoga is great for stress! Do you like it?', 'I keep saying I will start yoga too.'],
    single: 'Where does {name} do yoga?',
    when: 'start doing yoga',
  },
  {
    id: 'bike',
    cats: ['kids', 'outdoors'],
    x: ['the park', 'our street', 'the school parking lot'],
    say: ['Taught my youngest to ride a bike {when}!'],
    detail: ['We practiced in {x} until it got dark. Lots of scraped knees.'],
    echo: ['Aww that is a big milestone! Did they fall a lot?', 'Riding a bike! I remember learning, scary stuff.'],
    single: 'Where did {name} teach {his} child to ride a bike?',
    when: 'teach {his} youngest to ride a bike',
  },
  {
    id: 'book-club',
    cats: ['culture', 'community'],
    x: ['a mystery novel', 'a memoir', 'a sci-fi classic'],
    say: ['Joined a book club at the library {when}.'],
    detail: ['First pick was {x}. Everyone hated the ending except me.'],
    echo: ['A book club! What are you reading?', 'That sounds cozy, I need more reading in my life.'],
    single: "What was the first book at {name}'s book club?",
    when: 'join the book club',
  },
  {
    id: 'move',
    cats: ['family'],
    x: ['a bigger place near the park', 'a flat downtown', 'a house with a yard'],
    say: ['We finally moved {when}! Boxes everywhere.'],
    detail: ['We are in {x} now. The kids each have their own room.'],
    echo: ['You moved! How is the new place?', 'Moving is the worst, hope you are surviving.'],
    single: 'Where did {name} move to?',
    when: 'move into the new place',
  },
  {
    id: 'beach-cleanup',
    cats: ['community', 'outdoors'],
    x: ['forty bags', 'a whole truck', 'so much plastic'],
    say: ['Joined a beach cleanup {when} with some neighbours.'],
    detail: ['We collected {x} in three hours. It was sad and motivating.'],
    echo: ['A beach cleanup, love that. How much trash was there?', 'That is such a good way to spend a morning.'],
    single: 'How much trash did {name} collect at the beach cleanup?',
    when: 'join the beach cleanup',
  },
  {
    id: 'vet',
    cats: ['pets'],
    x: ['an ear infection', 'a sprained paw', 'eating a sock'],
    say: ['Had to rush my dog to the vet {when}, I was so scared.'],
    detail: ['Turned out to be {x}. He is fine now, just very dramatic about the cone.'],
    echo: ['Oh no! Is the dog okay??', 'The vet, that is terrifying. What happened?'],
    single: "Why did {name}'s dog go to the vet?",
    when: 'take {his} dog to the vet',
  },
  {
    id: 'trip-abroad',
    cats: ['travel', 'culture'],
    x: ['Lisbon', 'Tokyo', 'Mexico City', 'Rome', 'Seoul'],
    say: ['We got back from our trip abroad {when}, still jet-lagged.'],
    detail: ['We were in {x} for ten days. I ate my body weight in pastries.'],
    echo: ['Jet lag is brutal. Where were you?', 'A trip abroad! Was it your first time there?'],
    single: 'Which city did {name} visit abroad?',
    when: 'get back from the trip abroad',
  },
  {
    id: 'school-play',
    cats: ['kids', 'culture'],
    x: ['a tree', 'the narrator', 'a singing frog'],
    say: ["My daughter's school play was {when}!"],
    detail: ['She played {x} and did not miss a single line. So proud.'],
    echo: ['A school play!! What role did she have?', 'I bet you filmed the whole thing haha.'],
    single: "What role did {name}'s daughter play in the school play?",
    when: "go to {his} daughter's school play",
  },
  {
    id: 'certificate',
    cats: ['career'],
    x: ['project management', 'counseling', 'data analysis', 'first aid instruction'],
    say: ['I passed my certification exam {when}!'],
    detail: ['It is in {x}. Months of studying at night finally paid off.'],
    echo: ['Congrats!!! All those late nights!', 'You passed! What was the exam for?'],
    single: 'What certification did {name} earn?',
    when: 'pass the certification exam',
  },
  {
    id: 'farmers-market',
    cats: ['food'],
    x: ['honey from a local beekeeper', 'the best peaches', 'homemade sourdough'],
    say: ['Went to the farmers market {when}, came back with way too much.'],
    detail: ['Found {x}, I am going back every Saturday now.'],
    echo: [
      'The farmers market is my happy place. What did you get?',
      'Way too much is the only way to do a market haha.',
    ],
    single: 'What did {name} find at the farmers market?',
    when: 'go to the farmers market',
  },
  {
    id: 'mentoring',
    cats: ['community', 'career'],
    x: ['a teenager from the youth center', 'two junior colleagues', 'a first-generation student'],
    say: ['I started mentoring {when}, it is such a good feeling.'],
    detail: ['I meet {x} every other week. Mostly I just listen.'],
    echo: ['Mentoring, that is so generous of you!', 'Who are you mentoring?'],
    single: 'Who does {name} mentor?',
    when: 'start mentoring',
  },
  {
    id: 'anniversary',
    cats: ['family'],
    x: ['fortieth', 'thirtieth', 'twenty-fifth'],
    say: ["We threw my parents' anniversary party {when}."],
    detail: ['Their {x}! My dad danced for the first time in years.'],
    echo: ['Aww how many years?', 'That is beautiful, they must have loved it.'],
    single: "Which anniversary did {name}'s parents celebrate?",
    when: "throw {his} parents' anniversary party",
  },
  {
    id: 'kayak',
    cats: ['outdoors'],
    x: ['the river', 'a bay full of seals', 'a mountain lake'],
    say: ['Tried kayaking {when} for the first time!'],
    detail: ['We paddled on {x}. I tipped over once, very graceful.'],
    echo: ['Kayaking! Did you fall in haha?', 'I have always wanted to try kayaking.'],
    single: 'Where did {name} go kayaking?',
    when: 'try kayaking',
  },
  {
    id: 'photo',
    cats: ['creative', 'outdoors'],
    x: ['old doors and windows', 'street musicians', 'birds in the marsh'],
    say: ['Went on a photography walk {when} with my new camera.'],
    detail: ['I ended up shooting {x}, got a couple I really like.'],
    echo: ['New camera! What did you take pictures of?', 'You have such a good eye, I bet they are great.'],
    single: 'What did {name} photograph on the photo walk?',
    when: 'go on a photography walk',
  },
];

/** What either speaker says between topics: greetings, small talk, reactions, goodbyes. */
export const OPENERS = [
  'Hey {friend}! How have you been?',
  'Hi {friend}! Long time no chat!',
  '{friend}!! Finally, I have so much to tell you.',
  'Hey you. Got a minute to catch up?',
  'Good morning {friend}! How was your week?',
];
export const REPLIES = [
  "Hey! I'm good, a bit tired but good. You?",
  'Hi hi! Busy as always, but happy to chat.',
  "Doing okay! It's been a week, honestly.",
  'So good to hear from you! All fine here.',
];
export const SMALL_TALK = [
  'The weather has been so weird lately, sun one minute and hail the next.',
  'Work has been a lot this week, I barely had time to breathe.',
  'I binge-watched a whole series this weekend, no regrets haha.',
  'I have been trying to drink more water, day four and going strong.',
  'Our neighbour started renovating, so the drilling starts at 7 every morning.',
  'I finally cleaned out the garage, found so much stuff I forgot about.',
  'Traffic was insane today, it took me an hour to get home.',
  'I made way too much soup yesterday, we will be eating it all week.',
];
export const REACTIONS = [
  "That's amazing, {friend}!",
  'Haha I can totally picture that.',
  'Wow, good for you!',
  'I love that for you.',
  'That sounds like exactly what you needed.',
  'Oh that makes me so happy to hear.',
  'You always find the best things to do.',
  'Honestly that is inspiring.',
  'That is so sweet.',
  'No way! Tell me more.',
];
export const SELF_SHARE = [
  'I should really try that sometime.',
  'That reminds me, I need to plan something fun too.',
  'I wish I had your energy haha.',
  'We did something similar a few years ago, such good memories.',
];
export const FOLLOW_UPS = [
  'How did you feel about it?',
  'Would you do it again?',
  'Was it what you expected?',
  'Who else was there?',
  'Did you take any pictures?',
  'How are you feeling now?',
];
export const FEELINGS = [
  'Honestly it was the best part of my month.',
  'Exhausting, but so worth it.',
  'A bit nervous at first, then I relaxed and just enjoyed it.',
  "I'd do it again tomorrow if I could.",
  'It reminded me why I love this stuff.',
  'I felt really proud of myself, which is rare haha.',
  'Mixed feelings, but mostly good.',
];
export const CLOSERS = [
  'Anyway, I should get going. Talk soon?',
  'Okay, dinner is burning, gotta run! Bye!',
  'It was so good catching up. Take care!',
  'Talk to you next week!',
];
export const FAREWELLS = ['Bye! Take care of yourself.', 'Talk soon, miss you!', 'Yes! Bye bye!', 'Have a great week!'];

/** Relative times as people say them, with their offset in days before the chat. */
export const WHEN = [
  ['yesterday', 1],
  ['last weekend', 6],
  ['last week', 7],
  ['two days ago', 2],
  ['this morning', 0],
  ['last Friday', 4],
  ['a few days ago', 3],
  ['last month', 30],
];

/** Questions that gather a category across chats (multi-hop) and that ask what a person would like (open). */
export const CATEGORY_QUESTIONS = {
  kids: ['What activities has {name} done with {his} kids?', 'How does {name} spend time with {his} children?'],
  outdoors: ['What outdoor activities has {name} done?', 'What does {name} do outside in nature?'],
  creative: ['What creative things has {name} made?', 'What artistic hobbies does {name} have?'],
  travel: ['Where has {name} traveled?', 'Which trips has {name} taken?'],
  community: ['How has {name} helped others in the community?', 'What volunteering has {name} done?'],
  career: ['What milestones has {name} reached at work?', 'How has {name} progressed professionally?'],
  health: ['What has {name} done for {his} health?', 'How does {name} look after {his} wellbeing?'],
  pets: ['What has happened with {name} and {his} animals?', "What do we know about {name}'s pets?"],
  food: ['What food-related activities has {name} done?', 'How is {name} into food?'],
  family: ['What family events has {name} had?', 'Which family occasions has {name} mentioned?'],
  culture: ['What cultural outings has {name} been on?', 'Which shows, books or museums has {name} enjoyed?'],
};
export const OPEN_QUESTIONS = {
  kids: ['Would {name} likely enjoy a family day at a theme park?'],
  outdoors: ['Would {name} likely enjoy a week-long trek in the mountains?', 'Is {name} an outdoorsy person?'],
  creative: ['Would {name} be interested in an evening art course?'],
  travel: ['Would {name} be excited about a backpacking trip through Europe?'],
  community: ['Would {name} likely volunteer at a local food bank?'],
  career: ['Is {name} ambitious about {his} job?'],
  health: ['Does {name} care about staying fit?'],
  pets: ['Would {name} consider taking in another animal?'],
  food: ['Would {name} enjoy a cooking competition?'],
  family: ['Is {name} close to {his} relatives?'],
  culture: ['Would {name} enjoy a night at the theater?'],
};

/** Second wordings of each event's news and details: people do not tell the same thing the same way. */
const RETOLD = {
  pottery: [
    'So {when} I dragged the kids to this pottery place downtown and it was messy and perfect.',
    'Everyone came home with {x}, all wonky.',
  ],
  camping: [
    '{when} we packed the tent and the kids and went off to sleep under the stars.',
    'It was {x}. Freezing at night but the kids did not complain once.',
  ],
  'support-group': [
    'Something big: {when} I finally went to that {x} group I told you about.',
    'Everyone there just gets it, you know? Nobody needed an explanation.',
  ],
  painting: [
    '{when} I put the last brushstroke on the canvas I was working on!',
    'I painted {x}. It is not perfect, but it is mine.',
  ],
  hike: ['{when} I did a proper hike, like six hours on the trail.', 'It was {x}. I packed way too many snacks haha.'],
  shelter: [
    'I signed up at the rescue center near us as a volunteer, first shift was {when}.',
    'So far it is {x}. The animals are so grateful for any attention.',
  ],
  promotion: ['Big news at work {when}: they gave me the promotion!', 'The new title is {x}. Still sinking in.'],
  marathon: ['I did it — 13.1 miles {when}!', 'All the money went to {x}. My knees hate me.'],
  museum: ['{when} we spent the whole afternoon at the museum with the kids.', 'The highlight for them was {x}.'],
  'cooking-class': [
    '{when} I went to my first evening class at the cooking school.',
    'The chef showed us {x}. Harder than it looks.',
  ],
  'adopt-cat': [
    'We have a new family member since {when} — a tiny cat!',
    'We named her {x}. She already rules the house.',
  ],
  concert: [
    '{when} I saw a live show and danced like nobody was watching.',
    'We saw {x}. I lost my voice singing along.',
  ],
  'road-trip': [
    'We did the long drive we always talked about, got home {when}.',
    'The route was {x}. So many gas station snacks.',
  ],
  wedding: ["I was at a wedding {when}, it was my {x}'s big day.", 'I even did a toast, my hands were shaking.'],
  garden: ['{when} I was out in the yard all day putting seedlings in the ground.', 'Went with {x} this time.'],
  interview: ['Okay so I had an interview {when}. Nervous wreck.', 'The company was {x}. Waiting to hear back.'],
  yoga: ['New habit since {when}: yoga!', 'Classes are {x}. I can almost touch my toes.'],
  bike: ['{when} my little one finally rode without training wheels!', 'We practiced in {x} for hours.'],
  'book-club': ['I went to my first book club meeting {when}.', 'We discussed {x}. Lots of opinions haha.'],
  move: ['The move is done! We got the keys and moved in {when}.', 'The new place is {x}. Still living out of boxes.'],
  'beach-cleanup': [
    '{when} a bunch of us picked up trash along the shore.',
    'We filled {x}. People leave so much behind.',
  ],
  vet: [
    'Scary moment {when}, the dog got sick and we went straight to the animal hospital.',
    'The vet said it was {x}. He is on meds now.',
  ],
  'trip-abroad': ['We flew home from our vacation overseas {when}.', 'It was {x}. I want to go back already.'],
  'school-play': [
    '{when} I watched my daughter on stage at school, I was a mess.',
    'Her part was {x} and she nailed it.',
  ],
  certificate: [
    'I got the results {when} — I passed the exam!',
    'The certificate is in {x}. All those flashcards, finally.',
  ],
  'farmers-market': ['{when} I wandered around the market stalls for two hours.', 'Best find was {x}.'],
  mentoring: [
    'I signed up as a mentor and had the first meeting {when}.',
    'I am paired with {x}. They remind me of myself at that age.',
  ],
  anniversary: [
    '{when} we celebrated my parents being married for so long, big party.',
    'It was their {x}! Everyone was there.',
  ],
  kayak: ['I got in a kayak for the first time {when}!', 'We went out on {x}. Arms are dead today.'],
  photo: ['{when} I took the new camera out for a long walk around town.', 'I kept photographing {x}.'],
};
for (const e of EVENTS) {
  e.say.push(RETOLD[e.id][0]);
  e.detail.push(RETOLD[e.id][1]);
}
