/**
 * Life events of the conversational-memory source: pets, sports, hobbies, trips, books and music, food (see quality-dialogue-events.mjs for
 * what an event holds).
 */
export const LEISURE_EVENTS = [
  {
    group: 'pets',
    slots: {
      breed: ['beagle', 'corgi', 'labrador', 'dachshund', 'border collie'],
      pet: ['Biscuit', 'Pepper', 'Miso', 'Toby', 'Waffles'],
    },
    say: [
      'We finally adopted a {breed} puppy from the shelter, his name is {pet}!',
      'Big news: there is a little {breed} called {pet} living with us now.',
    ],
    ask: ["What is the name of {P}'s dog?", 'What breed is the puppy {P} adopted?'],
    when: ['When did {P} adopt the puppy?', 'When did {P} bring {pet} home?'],
    feel: ['{pet} chews every shoe in the house but honestly mornings are so much happier with him around.'],
    feelAsk: ['How does {P} feel about life with {pet}?'],
    echo: ['Aww, a {breed}! My cousin had one growing up.', 'Send me pictures of {pet} please!'],
  },
  {
    group: 'pets',
    slots: { pet: ['Luna', 'Oliver', 'Clementine', 'Mochi'], color: ['ginger', 'grey', 'black', 'tabby'] },
    say: [
      'A {color} kitten showed up on our porch and we kept her, we call her {pet}.',
      'Did I tell you we took in a stray cat? {pet}, a tiny {color} one.',
    ],
    ask: ["What is the name of {P}'s cat?", "What color is {P}'s kitten?"],
    when: ['When did {P} take in the stray kitten?'],
    echo: ['Cats that pick you are the best cats.', 'A {color} cat, how cute is that.'],
  },
  {
    group: 'sports',
    slots: {
      sport: ['volleyball', 'ultimate frisbee', 'futsal', 'water polo'],
      day: ['Tuesday', 'Thursday', 'Sunday'],
    },
    say: [
      'I signed up for a {sport} league, we play every {day} night at the rec center.',
      'Joined a {sport} team on a whim, first game is this {day}!',
    ],
    ask: ['Which league did {P} join?', 'What team sport does {P} play on {day}s?'],
    when: ['When did {P} start playing in the league?'],
    feel: ['I was so nervous at my first {sport} game but the team made me feel welcome right away.'],
    feelAsk: ['How did {P} feel about joining a team?'],
    echo: ['I tried {sport} once in college, so much running.', 'Good luck on {day}!'],
  },
  {
    group: 'sports',
    slots: { place: ['Red Rock canyon', 'the bouldering gym downtown', 'Castle Crag'], grade: ['5.9', 'V3', '5.10a'] },
    say: [
      'Went rock climbing for the first time at {place} and managed a {grade} route!',
      'I finally climbed a {grade} at {place}, my arms are dead.',
    ],
    ask: ['Where did {P} go climbing?', 'What route grade did {P} climb?'],
    when: ['When did {P} first go rock climbing?'],
    echo: ['Climbing terrifies me, I would never look down.', 'Is {place} far from you?'],
  },
  {
    group: 'sports',
    slots: {
      race: ['half marathon', '10K', 'trail race'],
      city: ['Portland', 'Boulder', 'Austin', 'Madison'],
      time: ['1:52', '48 minutes', '2:05'],
    },
    say: [
      'I ran the {city} {race} this weekend, finished in {time}!',
      'Crossed the finish line of the {race} in {city} at {time}, legs are jelly.',
    ],
    ask: ['Which race did {P} run in {city}?', "What was {P}'s finishing time?"],
    when: ['When did {P} run the {race}?'],
    feel: ['Training for the {race} taught me I can actually stick with something hard.'],
    feelAsk: ['What did {P} learn from training for a race?'],
    echo: ['I get tired walking to the car, respect.', '{city} must have been pretty this time of year.'],
  },
  {
    group: 'hobbies',
    slots: {
      craft: ['pottery', 'watercolor painting', 'woodworking', 'knitting'],
      venue: ['the community center', 'a studio near the river', 'the library annex'],
    },
    say: [
      'I started a {craft} class at {venue}, my first piece was hilariously lopsided.',
      'Been taking {craft} lessons at {venue} on weekends.',
    ],
    ask: ['What class did {P} start taking?', 'Where does {P} take {craft} lessons?'],
    when: ['When did {P} start the {craft} class?'],
    feel: ['Sitting at the {craft} table is the only time my head goes quiet, it is like meditation.'],
    feelAsk: ['Why does {P} enjoy {craft}?'],
    echo: ['My mom did {craft} for years, she would love that.', 'Show me what you make!'],
  },
  {
    group: 'hobbies',
    slots: {
      instrument: ['violin', 'cello', 'ukulele', 'banjo', 'piano'],
      teacher: ['Mrs. Alvarez', 'a retired jazz player', 'an online tutor'],
    },
    say: [
      'I picked the {instrument} back up after ten years, lessons with {teacher} every week.',
      'Guess who is practicing scales on the {instrument} again, lessons with {teacher}.',
    ],
    ask: ['Which instrument did {P} pick back up?', 'Who teaches {P} music?'],
    when: ['When did {P} resume {instrument} lessons?'],
    echo: ['I always wanted to learn the {instrument}.', 'Play me something next time!'],
  },
  {
    group: 'hobbies',
    slots: {
      crop: ['tomatoes', 'peppers', 'zucchini', 'strawberries'],
      spot: ['the backyard', 'a community garden plot', 'the balcony'],
    },
    say: [
      'Planted {crop} in {spot}, fingers crossed the squirrels leave them alone.',
      'My {crop} in {spot} finally sprouted!',
    ],
    ask: ['What is {P} growing?', 'Where is {P} gardening?'],
    when: ['When did {P} plant the {crop}?'],
    echo: ['Squirrels are the worst, they ate all of my neighbor’s {crop}.', 'Homegrown {crop} taste so much better.'],
  },
  {
    group: 'trips',
    slots: {
      dest: ['Lisbon', 'Kyoto', 'Banff', 'Oaxaca', 'Reykjavik'],
      with: ['my sister', 'two college friends', 'my partner'],
    },
    say: [
      'Just got back from a week in {dest} with {with}, the food was unreal.',
      'Spent the week in {dest} with {with}, I never wanted to leave.',
    ],
    ask: ['Where did {P} travel with {with}?', 'Who went with {P} to {dest}?'],
    when: ['When did {P} visit {dest}?'],
    feel: ['Being in {dest} reminded me how much I need to get out of my routine now and then.'],
    feelAsk: ['What did the trip to {dest} make {P} realize?'],
    echo: ['{dest} is on my list!', 'I want every detail about {dest}.'],
  },
  {
    group: 'trips',
    slots: {
      lake: ['Lake Tahoe', 'Crater Lake', 'Lake Placid', 'Flathead Lake'],
      kids: ['the kids', 'my nephews', 'the whole family'],
    },
    say: [
      'We went camping at {lake} with {kids}, roasted marshmallows every night.',
      'Camped three nights by {lake} with {kids}, no phone signal at all.',
    ],
    ask: ['Where did {P} go camping?', 'Who went camping with {P}?'],
    when: ['When did {P} go camping at {lake}?'],
    echo: ['Camping without signal sounds like heaven.', 'I have not been to {lake} since I was little.'],
  },
  {
    group: 'media',
    slots: {
      book: ['The Overstory', 'Station Eleven', 'Piranesi', 'Braiding Sweetgrass'],
      club: ['my book club', 'a reading group at work'],
    },
    say: [
      '{club} picked {book} this month and I could not put it down.',
      'Just finished {book} for {club}, what an ending.',
    ],
    ask: ['What book did {P} read for {club}?', 'Which novel could {P} not put down?'],
    when: ['When did {P} read {book}?'],
    echo: ['I have heard great things about {book}.', 'Add it to my list!'],
  },
  {
    group: 'media',
    slots: {
      band: ['Phoebe Bridgers', 'Khruangbin', 'The National', 'Hozier'],
      venue: ['the Fillmore', 'an outdoor amphitheater', 'a tiny club'],
    },
    say: [
      'Saw {band} live at {venue} last night, I cried during the encore.',
      'The {band} concert at {venue} was the best show of my life.',
    ],
    ask: ['Which band did {P} see live?', 'Where did {P} see {band}?'],
    when: ['When did {P} go to the {band} concert?'],
    echo: ['So jealous, I love {band}.', 'Concerts at {venue} are always magical.'],
  },
  {
    group: 'food',
    slots: {
      dish: ['sourdough bread', 'homemade ramen', 'mole negro', 'pierogi'],
      source: ['my grandmother’s recipe', 'a cooking video', 'a class at the market'],
    },
    say: [
      'I have been making {dish} from {source}, it took four tries to get right.',
      'Finally nailed {dish}, learned it from {source}.',
    ],
    ask: ['What has {P} been cooking?', 'Where did {P} learn to make {dish}?'],
    when: ['When did {P} learn to make {dish}?'],
    echo: ['Save me some {dish}!', 'Cooking from scratch is so satisfying.'],
  },
];
