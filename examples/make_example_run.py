#!/usr/bin/env python3
"""Generate the committed example MiroFish run in examples/mirofish_run/.

The scenario is a simulated public debate about Harbourton City Council's
plan to close River Road, along the river, to private cars. The output
mirrors the files a real MiroFish run leaves behind:

    mirofish_run/graph.json              knowledge graph (Zep-style nodes/edges)
    mirofish_run/twitter/actions.jsonl   Twitter action log with round events
    mirofish_run/reddit/actions.jsonl    Reddit action log with round events
    mirofish_run/reddit_profiles.json    OASIS Reddit agent profiles
    mirofish_run/twitter_profiles.csv    OASIS Twitter agent profiles

Standard library only, no network, fully deterministic: running it twice
produces byte-identical files.

    python3 examples/make_example_run.py [--out DIR]
"""

# ruff: noqa: E501  (long lines are post texts and profile data)
import argparse
import csv
import json
import os
import random
import uuid
from datetime import datetime, timedelta

SEED = 20250506
ROUNDS = 8
GRAPH_BUILT = datetime(2025, 5, 6, 9, 2, 13, 512000)
SIM_START = datetime(2025, 5, 6, 10, 14, 7, 318204)
START_HOUR = 8  # simulated clock at round 1
MINUTES_PER_ROUND = 120  # each round covers two simulated hours

rng = random.Random(SEED)


def new_uuid():
    return str(uuid.UUID(int=rng.getrandbits(128), version=4))


def zts(dt):
    """Zep-style UTC timestamp."""
    return dt.strftime("%Y-%m-%dT%H:%M:%S.%f") + "Z"


def day(y, m, d):
    return f"{y:04d}-{m:02d}-{d:02d}T00:00:00Z"


# ---------------------------------------------------------------------------
# Agents (Person / Organization / MediaOutlet entities), agent_id = index
# ---------------------------------------------------------------------------
# key, name, label, stance, activity weight
AGENTS = [
    ("maya", "Maya Okafor", "Person", "mid", 1.0),
    ("reyes", "Daniel Reyes", "Person", "pro", 0.9),
    ("marsh", "Helen Marsh", "Person", "anti", 0.9),
    ("priya", "Priya Natarajan", "Person", "mid", 0.6),
    ("tom", "Tom Gallagher", "Person", "anti", 0.85),
    ("aisha", "Aisha Bello", "Person", "pro", 0.85),
    ("frank", "Frank Delaney", "Person", "anti", 0.6),
    ("sofia", "Sofia Lindqvist", "Person", "mid", 0.8),
    ("marcus", "Marcus Chen", "Person", "mid", 0.55),
    ("rosa", "Rosa Fernandes", "Person", "pro", 0.65),
    ("grace", "Grace Mbeki", "Person", "mid", 0.55),
    ("nadia", "Nadia Haddad", "Person", "pro", 0.65),
    ("rra", "Riverside Residents' Association", "Organization", "pro", 0.6),
    ("eng", "Eastbank Neighbours' Group", "Organization", "anti", 0.65),
    ("chamber", "Harbourton Chamber of Commerce", "Organization", "anti", 0.6),
    ("cycle", "Harbourton Cycling Campaign", "Organization", "pro", 0.7),
    ("lab", "Urban Mobility Lab", "Organization", "mid", 0.5),
    ("courier", "Harbourton Courier", "MediaOutlet", "media", 0.95),
    ("radio", "River City Radio", "MediaOutlet", "media", 0.75),
    ("beacon", "Harbourton Beacon", "MediaOutlet", "media", 0.7),
]
AGENT_INDEX = {a[0]: i for i, a in enumerate(AGENTS)}
NAME = {a[0]: a[1] for a in AGENTS}


def first_name(aid):
    key, name, label = AGENTS[aid][0], AGENTS[aid][1], AGENTS[aid][2]
    if label != "Person":
        return None
    if key in ("reyes", "marsh"):
        return "Cllr " + name.split()[-1]
    return name.split()[0]


# ---------------------------------------------------------------------------
# Profiles
# ---------------------------------------------------------------------------
# key: username, age, gender, mbti, profession, karma, topics, bio, persona
PROFILES = {
    "maya": (
        "maya_okafor_hc",
        34,
        "female",
        "ISTJ",
        "Journalist",
        4120,
        ["local politics", "transport", "city hall", "housing"],
        "Transport & city hall reporter at the Harbourton Courier. Tips welcome. Views my own.",
        "Maya Okafor has covered Harbourton City Council for the Courier for seven years. "
        "She is methodical, checks documents before she tweets, and is quick to correct "
        "misinformation from either side. She posts short factual updates, live-tweets "
        "meetings, and asks officials precise questions about dates, budgets and exemptions.",
    ),
    "reyes": (
        "cllr_dan_reyes",
        46,
        "male",
        "ENFJ",
        "City councillor",
        2890,
        ["active travel", "air quality", "Riverside ward", "public space"],
        "Councillor for Riverside ward. Chair, Transport Committee. Dad of two, bad runner, River Road optimist.",
        "Daniel Reyes is the councillor for Riverside ward, in his second term, and the lead sponsor "
        "of the River Road Car-Free Plan. He is persuasive and upbeat, frames the plan as a "
        "trial that can be adjusted, and tries to answer critics publicly and politely. Under "
        "pressure he concedes details (delivery windows, blue badge permits) but not the principle.",
    ),
    "marsh": (
        "helenmarsh_eastbank",
        58,
        "female",
        "ESTJ",
        "City councillor",
        3305,
        ["Eastbank", "council budgets", "small business", "traffic"],
        "Councillor for Eastbank. Opposition transport spokesperson. Here to ask the awkward questions.",
        "Helen Marsh has represented Eastbank for twelve years and leads the opposition on "
        "transport. She is blunt, well briefed on budgets, and argues the plan pushes traffic "
        "onto Tanner Street and the Eastbank side of Millbrook Bridge. She distances herself "
        "from false claims but does not soften her core objection.",
    ),
    "priya": (
        "priya_natarajan_uml",
        41,
        "female",
        "INTJ",
        "Professor of Transport Planning",
        1875,
        ["transport data", "air quality", "urban planning", "open data"],
        "Director, Urban Mobility Lab @ Harbourton University. Counting cars so you don't have to.",
        "Priya Natarajan runs the university lab that produced the River Road traffic and air "
        "quality baseline. She is careful and precise, explains methodology, flags uncertainty, "
        "and gets visibly frustrated when numbers are misquoted by either camp.",
    ),
    "tom": (
        "gallaghers_tom",
        57,
        "male",
        "ISTP",
        "Hardware shop owner",
        960,
        ["small business", "River Road", "deliveries", "parking"],
        'Third generation at Gallagher\'s Hardware, River Road. "Keys cut while you wait."',
        "Tom Gallagher runs the family hardware shop his grandfather opened on River Road in 1961. "
        "He is plain-spoken, a bit weary, and worried that customers who buy heavy goods will stop "
        "coming if they cannot park. He is not ideological and would accept a workable delivery "
        "window, but distrusts the council after hearing about the plan from a customer.",
    ),
    "aisha": (
        "aisha_on_two_wheels",
        29,
        "female",
        "ENFP",
        "A&E nurse",
        2240,
        ["cycling", "road safety", "health", "night shifts"],
        "A&E nurse at Harbourton General. Commutes by bike in all weathers. Tea > coffee.",
        "Aisha Bello cycles River Road to and from night shifts and has been close-passed more "
        "times than she can count. She is warm, enthusiastic and uses the odd emoji. She supports "
        "the plan strongly but insists disabled access must be guaranteed, and pushes back on "
        "misinformation she sees in group chats.",
    ),
    "frank": (
        "frank_delaney_oldquay",
        74,
        "male",
        "ISFJ",
        "Retired ferry engineer",
        410,
        ["Old Quay", "accessibility", "local history", "pensioners"],
        "Old Quay resident for 40 years. Retired ferry engineer. Husband, grandad, reluctant internet user.",
        "Frank Delaney lives on the Old Quay with his wife, who uses a wheelchair. He is courteous, "
        "anxious about access to the surgery and the shops, and sceptical of permit schemes. He is "
        "not against change in principle and appreciates being listened to.",
    ),
    "sofia": (
        "sofia_harbournotes",
        38,
        "female",
        "INTP",
        "Freelance journalist",
        3560,
        ["local news", "media", "data journalism", "misinformation"],
        "Freelance. Writes Harbour Notes, a weekly newsletter on how Harbourton works. Ex-Beacon.",
        "Sofia Lindqvist left the Harbourton Beacon in January to go freelance. She is analytical, "
        "slightly sceptical of everyone, and likes to test claims herself, riding bus routes or "
        "tracing rumours to their source. She writes longer posts and newsletter teasers.",
    ),
    "marcus": (
        "marcus_drops",
        33,
        "male",
        "ESTP",
        "Courier driver",
        720,
        ["deliveries", "driving", "gig work", "Eastbank"],
        "Self-employed courier. 120 drops a day. If your parcel is late, blame the bridge.",
        "Marcus Chen drives a van around Harbourton six days a week and lives in Eastbank. He is "
        "pragmatic and a little sarcastic, cares about loading times and the Tanner Street junction, "
        "and points out practical details that others ignore.",
    ),
    "rosa": (
        "rosa_fernandes_rra",
        52,
        "female",
        "ENFJ",
        "Secondary school teacher",
        1340,
        ["residents' rights", "air quality", "community organising", "Old Quay"],
        "Chair, Riverside Residents' Association. Teacher. Diffusion tubes on every windowsill.",
        "Rosa Fernandes chairs the Riverside Residents' Association, which has campaigned for "
        "a quieter River Road for six years. She is organised and diplomatic, backs the plan, and "
        "makes a point of representing members with mobility needs.",
    ),
    "grace": (
        "grace_mbeki_hta",
        44,
        "female",
        "ISFJ",
        "Communications manager",
        1105,
        ["public transport", "buses", "accessibility", "customer information"],
        "Communications, Harbourton Transit Authority. Here for your Route 14 questions (9-5, weekdays).",
        "Grace Mbeki handles communications for the Harbourton Transit Authority. She is careful, "
        "neutral and factual, never takes sides on the closure itself, and focuses on service "
        "changes, journey times and step-free access.",
    ),
    "nadia": (
        "quaysidenadia",
        36,
        "female",
        "ESFP",
        "Cafe owner",
        1510,
        ["independent business", "coffee", "public space", "Old Quay"],
        "Co-owner, Quayside Coffee Co. on the Old Quay. Oat milk is not extra.",
        "Nadia Haddad co-owns a busy cafe near River Road. She is friendly and optimistic, wants "
        "outdoor seating without traffic fumes, and tries to build bridges with traders like Tom "
        "who fear the plan will hurt them.",
    ),
    "rra": (
        "riverside_residents",
        30,
        "other",
        "ESFJ",
        "Residents' association",
        2210,
        ["Old Quay", "air quality", "residents", "consultation"],
        "Riverside Residents' Association. Representing 900+ households on the Old Quay and River Road since 1987.",
        "The official account of the Riverside Residents' Association. It posts formal statements, "
        "survey results and meeting notices, supports the trial, and asks for guaranteed access for "
        "residents with mobility needs.",
    ),
    "eng": (
        "eastbank_neighbours",
        30,
        "other",
        "ISTJ",
        "Community group",
        1680,
        ["Eastbank", "traffic", "school safety", "Tanner Street"],
        "Eastbank Neighbours' Group. Volunteers looking out for Eastbank's streets, schools and parks.",
        "The account of a volunteer neighbourhood group on the east side of Millbrook Bridge. It "
        "opposes the plan in its current form because it expects diverted traffic on Tanner Street, "
        "past St Anne's Primary, and demands an Eastbank traffic study.",
    ),
    "chamber": (
        "harbourton_chamber",
        30,
        "other",
        "ESTJ",
        "Business association",
        1390,
        ["local economy", "small business", "deliveries", "business rates"],
        "Harbourton Chamber of Commerce. The voice of 640 local businesses.",
        "The Chamber's account is formal and measured. It publishes survey results, asks for a "
        "loading scheme, a business liaison officer and a hardship fund, and opposes the plan as "
        "currently drafted while signalling room for compromise.",
    ),
    "cycle": (
        "harbourton_cycles",
        30,
        "other",
        "ENFP",
        "Campaign group",
        3020,
        ["cycling", "active travel", "road safety", "climate"],
        "Harbourton Cycling Campaign. Safe streets for everyone aged 8 to 80. Volunteer-run.",
        "The campaign's account is upbeat and mobilising. It celebrates the plan, shares the lab's "
        "data, uses hashtags, and is quick to debunk misinformation, while publicly backing "
        "guaranteed access for disabled residents.",
    ),
    "lab": (
        "urban_mobility_lab",
        30,
        "other",
        "INTJ",
        "University research lab",
        980,
        ["transport research", "open data", "air quality", "methodology"],
        "Urban Mobility Lab, Harbourton University. Research on how people move through cities.",
        "The lab's account publishes reports, methodology notes and corrections. It is strictly "
        "non-partisan in tone and offers independent monitoring of any trial.",
    ),
    "courier": (
        "harbourton_courier",
        30,
        "other",
        "ESTJ",
        "News organisation",
        8840,
        ["local news", "politics", "transport", "business"],
        "Harbourton Courier. Harbourton's daily paper since 1871. News, sport and what's on.",
        "The Courier's account posts headlines, breaking news and fact checks in a neutral "
        "newsroom voice.",
    ),
    "radio": (
        "rivercityradio",
        30,
        "other",
        "ESFP",
        "Radio station",
        5120,
        ["local news", "phone-ins", "community", "music"],
        "River City Radio, 97.4 FM. Local news on the hour, the Morning Show from 6.",
        "The station's account promotes interviews and phone-ins, reports what callers say, and "
        "keeps a friendly, conversational tone.",
    ),
    "beacon": (
        "harbourtonbeacon",
        30,
        "other",
        "ENTP",
        "Online news site",
        4470,
        ["local news", "explainers", "polls", "community"],
        "The Harbourton Beacon. Independent, reader-funded local news online.",
        "The Beacon is a reader-funded online outlet that favours explainers, polls and "
        "investigations, with a slightly informal voice.",
    ),
}

# ---------------------------------------------------------------------------
# What each agent says: (first round, last round, text). Media lines are
# (first, last, headline, standfirst).
# ---------------------------------------------------------------------------
LINES = {
    "maya": [
        (
            1,
            2,
            "Council papers out this morning: River Road would close to private cars between Millbrook Bridge and the Old Quay steps for an 18-month trial. Buses, bikes and emergency vehicles keep access. Full story on the Courier site shortly.",
        ),
        (
            1,
            3,
            'Spoke to three shop owners on River Road within an hour of the plan going public. Two are furious, one says it\'s "about time". None had been told the start date in advance.',
        ),
        (
            2,
            4,
            "The Urban Mobility Lab's counts are worth reading closely: roughly 38% of cars on River Road never stop in the Old Quay at all. That figure is going to be quoted a lot this week.",
        ),
        (
            3,
            5,
            "Asked the Chamber how many members answered its survey. Answer: 212 out of roughly 640. Worth keeping in mind when you see the 61% headline.",
        ),
        (
            4,
            5,
            "Route 14 riders: the Transit Authority confirms the diversion over Millbrook Bridge, with an estimated 6 to 8 extra minutes at peak. Off-peak they say it's closer to 3.",
        ),
        (
            5,
            6,
            "Blue badge holders keep asking whether they get an exemption. The draft says \"managed access\" but never defines it. I've put the question to Cllr Reyes' office.",
        ),
        (
            6,
            6,
            "At the Guildhall for the River Road hearing. Every seat taken and people standing along the back wall. Updates here and on the Courier site.",
        ),
        (
            6,
            7,
            "Hearing update: Cllr Marsh asks for the trial to be cut to 6 months. Cllr Reyes says 6 months won't capture a full school year. Loud reaction from both sides of the room.",
        ),
        (
            7,
            8,
            "No, the plan does not block ambulances. Emergency vehicles keep full access through the bollards under section 4.2. I've read the document twice.",
        ),
        (
            8,
            8,
            "Transport committee has deferred the River Road vote to 12 June so officers can cost a delivery window and a blue badge permit scheme. Story updated.",
        ),
    ],
    "reyes": [
        (
            1,
            2,
            "Today we published our plan to give River Road back to people: a calmer, cleaner riverside for the families who live there and the thousands who walk and cycle it every day. Read it, then tell us what we've got wrong.",
        ),
        (
            1,
            3,
            "This is an 18-month trial, not a permanent closure. If it doesn't work, we'll change it. That's what trials are for.",
        ),
        (
            2,
            4,
            "Nearly four in ten cars on River Road are just passing through. Residents breathe that traffic without getting anything back from it.",
        ),
        (
            3,
            5,
            "I've heard the concerns from traders loud and clear. We're looking at a morning delivery window and short-stay loading bays at both ends of the road.",
        ),
        (
            4,
            5,
            "Buses keep River Road access through a bus gate. The Route 14 change is about the Eastbank side of the bridge, and we're working with the Transit Authority to keep the added time down.",
        ),
        (
            5,
            6,
            "Nobody who relies on a car for disability access will be shut out. Blue badge permits are in the plan and I want the details nailed down before any vote.",
        ),
        (
            6,
            7,
            "Thank you to everyone who came to the Guildhall tonight, including those who told me, firmly, that I'm wrong. That's how this is supposed to work.",
        ),
        (
            7,
            8,
            "Seen the post claiming ambulances will be blocked. It's not true. The ambulance service was consulted in February and keeps full access.",
        ),
        (
            8,
            8,
            "We've agreed to take a few more weeks. A better plan in June beats a rushed one in May.",
        ),
    ],
    "marsh": [
        (
            1,
            2,
            'The council calls it a "trial". Trials don\'t usually come with permanent bollards and a £400k budget line. Eastbank will pay for this with every diverted car.',
        ),
        (1, 3, "Not one Eastbank resident was consulted before this went to print. Not one."),
        (
            2,
            4,
            "The lab says 38% is through traffic. Where does the administration think that traffic goes? Tanner Street. Past a primary school.",
        ),
        (
            3,
            5,
            "Small businesses on River Road have survived roadworks, floods and a pandemic. Now the council wants to cut them off from their customers for a pilot.",
        ),
        (
            4,
            5,
            "Six to eight minutes extra on Route 14, twice a day, five days a week. That's over an hour a week for people who can least afford it.",
        ),
        (
            5,
            6,
            "I've had dozens of emails from older residents who don't cycle and can't walk to the bus. They deserve more than a footnote about managed access.",
        ),
        (
            6,
            7,
            "I asked tonight for a six-month trial with a proper independent review. The administration said no. Residents can draw their own conclusions.",
        ),
        (
            7,
            8,
            "To be clear, I have never said ambulances would be blocked. My concern is traffic displacement into Eastbank, and that concern stands.",
        ),
        (
            8,
            8,
            "Deferral is the right call. Now use the time to model Tanner Street properly, not just River Road.",
        ),
    ],
    "priya": [
        (
            2,
            3,
            "Our River Road counts are public: 11,400 motor vehicles on an average weekday, about 2,100 cycle trips, and a lot of people on foot that we didn't count well. Methodology is in the appendix.",
        ),
        (
            2,
            4,
            "Short explainer on the 38% through-traffic figure: we matched anonymised plates entering at Millbrook Bridge and leaving at the Old Quay end within 6 minutes. It's an estimate, not a census.",
        ),
        (
            3,
            5,
            "Evidence from other riverside closures is mixed for retail in the first year and mostly positive after that. Year one is where the pain is, and where support should go.",
        ),
        (
            4,
            6,
            "Traffic displacement is real but rarely one-for-one. Some trips change route, some change time, some disappear. Tanner Street would need monitoring from day one.",
        ),
        (
            5,
            7,
            "If there's a trial, measure it honestly: footfall, air quality, journey times on the diversion routes, and who actually uses the blue badge permits.",
        ),
        (
            7,
            8,
            "Please don't share the \"£2m of planters\" graphic. That number doesn't appear anywhere in the budget papers.",
        ),
        (
            8,
            8,
            "Happy to publish our monitoring plan before the June vote so anyone can check it. Data should be the boring part of this debate.",
        ),
    ],
    "tom": [
        (
            1,
            2,
            "Gallagher's has been on River Road since my grandad opened it in 1961. Half my trade is people who pull up, grab a bag of screws and go. Where are they meant to park?",
        ),
        (
            1,
            3,
            "Found out about the closure from a customer who read it on his phone. No letter, no visit, nothing.",
        ),
        (
            3,
            4,
            "People keep telling me footfall goes up after roads close. Footfall doesn't carry 25kg bags of plaster to a car 400 metres away.",
        ),
        (
            3,
            5,
            "Filled in the Chamber survey. Then the council survey. Then answered Maya's questions. Still nobody can tell me where my suppliers are supposed to unload.",
        ),
        (
            5,
            6,
            "Half my regulars are over 60. They're not getting on an e-bike, whatever the brochure says.",
        ),
        (
            6,
            7,
            "Went to the hearing. Got two minutes at the mic. Said my piece. Not sure anyone on the top table was listening.",
        ),
        (
            7,
            7,
            "Someone in the shop showed me a post saying ambulances won't be able to get down River Road. If that's true it's a disgrace. Can anyone confirm?",
        ),
        (
            8,
            8,
            "A delivery window before 10am might just about work. Might. I'll believe it when I see it in writing.",
        ),
    ],
    "aisha": [
        (
            1,
            2,
            "Cycled River Road at 6:45 this morning after a night shift and got close-passed twice before the bridge. A car-free riverside would be life-changing for people like me 🚲",
        ),
        (
            2,
            3,
            "2,100 cycle trips a day on a road with no protected lane. Imagine the number if people actually felt safe.",
        ),
        (
            3,
            4,
            "The Saturday market is the busiest River Road ever gets, and it's the one day there are no cars on it. Just saying 🤷‍♀️",
        ),
        (
            5,
            6,
            "I'm an A&E nurse. I want the blue badge exemption nailed down as much as anyone. Supporting the plan and supporting disabled access aren't opposites.",
        ),
        (
            6,
            7,
            "Left the Guildhall feeling hopeful. The room was angry, but angry about details, and details can be fixed.",
        ),
        (
            7,
            8,
            "The ambulance rumour is doing laps of every group chat I'm in. Emergency access is in the plan. Please read before forwarding.",
        ),
        (8, 8, "Deferred, not dead. See you all in June 💪"),
    ],
    "frank": [
        (
            1,
            3,
            "I'm 74 and I've lived on the Old Quay for forty years. My wife uses a wheelchair. I'd like someone to explain how we get to the surgery if River Road is shut.",
        ),
        (
            3,
            4,
            "The market is lovely on a Saturday. It's a different story on a wet Tuesday in November.",
        ),
        (
            5,
            6,
            "A managed access scheme sounds fine until you're the one on hold to the council for forty minutes trying to register your car.",
        ),
        (
            6,
            7,
            "Said my piece at the hearing. Cllr Reyes promised me a meeting about the permits. I'll hold him to that.",
        ),
        (
            7,
            8,
            "I don't know where this ambulance story came from, but it frightened a lot of people on my street. Whoever started it should be ashamed.",
        ),
        (
            8,
            8,
            "Glad they've slowed down. I'm not against change. I'm against change that forgets people like us.",
        ),
    ],
    "sofia": [
        (
            1,
            2,
            "This week's Harbour Notes: what the River Road plan actually says, what it doesn't, and the three questions the council still hasn't answered.",
        ),
        (
            2,
            4,
            "The lab's 38% number is solid work, but notice what it isn't: it doesn't tell you where the other 62% are going, or whether they'd still come.",
        ),
        (
            3,
            5,
            "The Chamber's survey had 212 responses. The council's consultation had 1,840. Both are self-selected. Neither is a poll.",
        ),
        (
            4,
            5,
            "Rode Route 14 end to end this afternoon to test the diversion estimate. Came out at 7 minutes extra in light traffic. Notes in the next edition.",
        ),
        (
            6,
            7,
            "The real story from the hearing isn't the shouting. It's that both sides agreed, almost word for word, on a morning delivery window.",
        ),
        (
            7,
            8,
            "Traced the ambulance claim back to a Facebook page that has been renamed twice in a month. Make of that what you will.",
        ),
        (
            8,
            8,
            "Deferring to June gives the council time. Whether it uses that time well is another question. I'll be reading the officer report.",
        ),
    ],
    "marcus": [
        (
            1,
            3,
            "Courier driver here. I do River Road six or seven times a day. If there's going to be a loading window, fine, tell me when. If there isn't, tell me now.",
        ),
        (
            3,
            5,
            "Everyone's arguing about shoppers and cyclists. Nobody's asked how a 3.5 tonne van gets a fridge to a third-floor flat on the Quay.",
        ),
        (
            4,
            6,
            "If Tanner Street becomes the rat run, I'll be sitting in it with everyone else. I'd rather see the plan for that junction first.",
        ),
        (
            6,
            7,
            "Only person at the hearing who mentioned parcel lockers was me. Might be worth a thought.",
        ),
        (
            8,
            8,
            "6 to 10am loading would cover most of my drops. Afternoon collections are the problem nobody has solved yet.",
        ),
    ],
    "rosa": [
        (
            1,
            3,
            "The Riverside Residents' Association has asked for this for six years. We'll be knocking on doors this week to hear from neighbours who haven't made up their minds.",
        ),
        (
            2,
            4,
            "Our members have kept diffusion tubes on their windowsills since last spring. The lab's air quality numbers match what we found.",
        ),
        (
            5,
            6,
            "Residents with mobility needs are our members too. We've sent the council a list of 23 households who need guaranteed vehicle access.",
        ),
        (
            6,
            7,
            "Proud of how our members spoke tonight. Disagreed strongly with some of what we heard, but it was a real conversation.",
        ),
        (
            8,
            8,
            "Disappointed there was no vote, but the extra weeks should give us a stronger permit scheme. We'll keep pushing.",
        ),
    ],
    "grace": [
        (
            1,
            3,
            "Route 14 customers: no changes to your service yet. If the River Road trial goes ahead, we'll give at least four weeks' notice of any diversion.",
        ),
        (
            4,
            5,
            "Our modelling shows the Route 14 diversion adding 6 to 8 minutes at peak and 2 to 4 off-peak. We've asked the council for a bus lane on the Eastbank approach to Millbrook Bridge.",
        ),
        (
            4,
            6,
            "For clarity: Route 18 and the Harbour Shuttle are not affected by the River Road proposal.",
        ),
        (
            5,
            6,
            "Every Route 14 bus is low-floor with a ramp, and all stops on the proposed diversion are step-free. We'll publish an accessibility map before any change.",
        ),
        (
            7,
            8,
            "We've had calls asking if buses will stop serving the Old Quay. They won't. Buses keep access to River Road under every option in the plan.",
        ),
        (
            8,
            8,
            "We'll keep working with council officers on journey-time mitigation ahead of the June committee.",
        ),
    ],
    "nadia": [
        (
            1,
            2,
            "Quayside Coffee is 30 metres from River Road and I'd love to put tables outside without breathing exhaust. Cautiously excited about this ☕",
        ),
        (
            3,
            4,
            "Most of my customers walk or cycle in. I know that's not true for every business on the road, and I don't want Tom's shop to suffer for my terrace.",
        ),
        (
            3,
            5,
            "Honest question for other River Road traders: would a 6 to 10am delivery window actually work for you? It would for us.",
        ),
        (
            6,
            7,
            "Brought 60 coffees to the Guildhall for the hearing. Both sides drank them, which I'm choosing to see as a good sign 😅",
        ),
        (
            8,
            8,
            "Proud of this city for showing up. Even the people I disagreed with made me think.",
        ),
    ],
    "rra": [
        (
            1,
            2,
            "STATEMENT: The Riverside Residents' Association welcomes the council's River Road proposals and will respond formally to the consultation. Our members' survey opens tonight.",
        ),
        (
            3,
            5,
            "Members' survey results: 412 responses, 71% in favour of the trial, 19% opposed, 10% undecided. Full breakdown on our website.",
        ),
        (
            6,
            7,
            "Thank you to the 40+ members who came to the Guildhall. Our written submission asks for guaranteed blue badge access and a full-year monitoring report.",
        ),
        (
            8,
            8,
            "We note the deferral to 12 June and will meet officers next week to discuss the permit scheme.",
        ),
    ],
    "eng": [
        (
            1,
            2,
            "River Road traffic doesn't vanish. It comes over Millbrook Bridge and down Tanner Street, past St Anne's Primary. Eastbank needs to be part of this conversation.",
        ),
        (
            2,
            4,
            "We asked the council for traffic counts on Tanner Street. They don't have any. That tells you who this plan was written for.",
        ),
        (
            4,
            5,
            "Join us Thursday, 7pm, at Eastbank Library to talk about the Route 14 diversion and what it means for our streets.",
        ),
        (
            6,
            7,
            "Our chair's statement to the hearing: we are not against cleaner air. We are against moving the problem to the other side of the river.",
        ),
        (8, 8, "The deferral is welcome. We expect a Tanner Street traffic study before any vote."),
    ],
    "chamber": [
        (
            1,
            2,
            "The Chamber is seriously concerned about the impact of the River Road proposals on the 40+ businesses that depend on vehicle access.",
        ),
        (
            3,
            4,
            "Survey results: 61% of responding members expect a negative impact on trade, 22% expect none, 17% are unsure. We are sharing the full results with the council.",
        ),
        (
            5,
            6,
            "We are asking the council for a dedicated loading scheme, a business liaison officer, and a hardship fund for year one of any trial.",
        ),
        (
            8,
            8,
            "The Chamber welcomes the council's decision to take more time, and will keep pressing for a delivery window and a hardship fund.",
        ),
    ],
    "cycle": [
        (
            1,
            2,
            "Huge day for Harbourton. A car-free River Road would link the Old Quay to the university and the station on a route families will actually ride.",
        ),
        (
            2,
            3,
            "2,100 daily cycle trips with zero protection. The lab's data backs what our members have said for years.",
        ),
        (
            5,
            6,
            "We fully support guaranteed access for disabled residents. A good scheme works for everyone, including people who can't cycle.",
        ),
        (
            6,
            6,
            "Great turnout at the Guildhall tonight. Thanks to everyone who spoke, on every side.",
        ),
        (
            7,
            8,
            "Please stop sharing the ambulance claim. Emergency access is explicitly protected in the plan (section 4.2).",
        ),
        (
            8,
            8,
            "The deferral is disappointing, but a stronger scheme in June is worth waiting for. Keep writing to your councillors.",
        ),
    ],
    "lab": [
        (
            2,
            3,
            "NEW REPORT: River Road Traffic and Air Quality Baseline, spring 2025. Key findings: 11,400 vehicles a day, around 38% through traffic, NO2 above the annual limit at two of five sites.",
        ),
        (
            4,
            5,
            "Methodology note: our through-traffic estimate uses anonymised plate matching over a 6-minute window. Confidence intervals and limitations are set out in section 3.",
        ),
        (
            7,
            8,
            "We have not modelled or published any figure of £2m for street furniture. Please check sources before sharing.",
        ),
        (
            8,
            8,
            "We have offered to run independent monitoring of any trial, with open data published monthly.",
        ),
    ],
    "courier": [
        (
            1,
            2,
            "BREAKING: Council unveils plan to close River Road to cars for 18-month trial",
            "Buses, cyclists and emergency vehicles would keep access between Millbrook Bridge and the Old Quay steps.",
        ),
        (
            2,
            3,
            "Nearly four in ten River Road drivers 'just passing through', university study finds",
            "The Urban Mobility Lab counted 11,400 vehicles on an average weekday.",
        ),
        (
            3,
            4,
            "'We'll lose half our trade': River Road shopkeepers fear closure",
            "Traders say deliveries and heavy purchases are their biggest worry.",
        ),
        (
            4,
            5,
            "Route 14 bus riders face up to 8 minutes extra under River Road plan",
            "The Transit Authority wants a bus lane on the Eastbank approach to Millbrook Bridge.",
        ),
        (
            5,
            6,
            "Blue badge holders demand answers on River Road access",
            "The draft promises managed access but sets out no permit rules yet.",
        ),
        (
            6,
            6,
            "LIVE: Packed Guildhall hearing on River Road closure",
            "More than 140 people turned out, with dozens more listening from the corridor.",
        ),
        (
            7,
            8,
            "FACT CHECK: No, the River Road plan does not block ambulances",
            "Section 4.2 of the plan keeps full access for emergency vehicles.",
        ),
        (
            8,
            8,
            "River Road vote delayed until June as council seeks compromise",
            "Officers will cost a morning delivery window and a blue badge permit scheme.",
        ),
    ],
    "radio": [
        (
            1,
            2,
            "On the Morning Show at 8: Cllr Daniel Reyes on why he wants cars off River Road",
            "Phone lines open from 7.30. What do you want to ask him?",
        ),
        (
            3,
            4,
            "Our phone lines were full all morning on the River Road plan",
            "Callers were split almost down the middle, with deliveries the most common worry.",
        ),
        (
            4,
            5,
            "Eastbank residents fear Tanner Street becoming a rat run",
            "Full report on the 5 o'clock news.",
        ),
        (
            6,
            7,
            "Highlights from tonight's River Road hearing from 9pm",
            "Hear from traders, residents, cyclists and both councillors.",
        ),
        (
            8,
            8,
            "Cllr Helen Marsh joins us tomorrow at 8 on the River Road deferral",
            "Got a question for her? Send it in now.",
        ),
    ],
    "beacon": [
        (
            1,
            2,
            "Explainer: what the River Road Car-Free Plan means for you, street by street",
            "Who keeps access, where the bollards go, and when the trial would start.",
        ),
        (
            2,
            3,
            "Poll: Would you support closing River Road to cars?",
            "Vote, then tell us why in the comments.",
        ),
        (
            4,
            5,
            "Route 14 diversion: which stops move and how long your journey could take",
            "We mapped every stop on the proposed route.",
        ),
        (
            7,
            8,
            "Where did the ambulance rumour come from? We traced it",
            "The claim first appeared on a page with no named owner.",
        ),
        (
            8,
            8,
            "Analysis: why the River Road vote was pushed back, and what has to change by June",
            "Three conditions the committee wants met before it decides.",
        ),
    ],
}

# Shared opinions by phase (round) and stance, for people replying and quoting.
TOPIC_OF_ROUND = {
    1: "announce",
    2: "data",
    3: "business",
    4: "transit",
    5: "access",
    6: "hearing",
    7: "rumour",
    8: "vote",
}
SHARED = {
    "announce": {
        "pro": [
            "Walked River Road with my kids on Sunday and had to keep them pinned to the wall the whole way. This can't come soon enough.",
            "Eighteen months is long enough to see if it works and short enough to undo if it doesn't.",
            "Every riverside city I've visited that did this seems glad it did.",
            "Finally a council willing to try something instead of commissioning another report.",
        ],
        "anti": [
            "Closing the one road along the river and calling it progress. Traffic doesn't evaporate, it moves.",
            "A trial that starts in September and runs through two winters isn't a trial, it's a decision.",
            "Interesting that this was published the week after the budget vote.",
            "Where's the consultation with the people who actually drive this road for work?",
        ],
        "mid": [
            "Genuinely undecided. I like the idea, but the plan is thin on deliveries and access.",
            "Has anyone seen a map of where the bollards would actually go?",
            "Would be good to hear from the Transit Authority before everyone picks a side.",
            "Reading the full document now. It's 64 pages, so give me an hour.",
        ],
    },
    "data": {
        "pro": [
            "The NO2 readings at the Old Quay end are above the legal limit. That should settle the 'why bother' question.",
            "If 38% of traffic is just cutting through, that's over 4,000 cars a day giving the neighbourhood nothing but fumes.",
            "Data from the lab, not vibes from Facebook. Read the report.",
            "Numbers like these are exactly why the trial should go ahead and be measured properly.",
        ],
        "anti": [
            "A two-week count in March tells you nothing about summer or the Christmas trade.",
            "Plate matching over six minutes? Plenty of people stop for five and drive on.",
            "Funny how a study the council paid for agrees with the council.",
            "Where's the count for Tanner Street? Measuring one end of the problem isn't evidence.",
        ],
        "mid": [
            "Is the lab's raw data available, or just the summary tables?",
            "The air quality numbers are worrying wherever you stand on the road itself.",
            "I'd like to see the same counts repeated in October before anyone decides anything.",
            "The 38% figure is an estimate with a margin. People on both sides are treating it as gospel.",
        ],
    },
    "business": {
        "pro": [
            "Shops on pedestrianised streets mostly did fine after year one. Year one is hard, and that's where the council should help.",
            "People who walk past a shop every day spend more over a month than people who drive past it at 30mph.",
            "Put the tables out, fill the street, and the trade will follow.",
            "A hardship fund for the first year would take most of the sting out of this.",
        ],
        "anti": [
            "Easy to support closures when your business is a cafe and not a builders' merchant.",
            "Rents on River Road aren't going down just because the cars are gone.",
            "The market works on Saturdays because it's an occasion. Weekdays are a different story.",
            "If the council is so sure trade will improve, let it guarantee business rates relief for the trial.",
        ],
        "mid": [
            "Would a 6 to 10am delivery window work for most traders? Seems like the obvious compromise.",
            "Different businesses, different needs. A florist and a hardware shop won't feel this the same way.",
            "Has anyone asked the market traders? They already run a car-free day every week.",
            "It would help to know how many customers actually arrive by car. Does anyone have numbers?",
        ],
    },
    "transit": {
        "pro": [
            "A bus gate on River Road could make Route 14 more reliable, not less, once the through traffic is gone.",
            "A few minutes extra on the bus is worth it if the bus stops getting stuck in the queue at the bridge.",
            "A bus lane on the Eastbank approach plus a car-free River Road would be a genuinely good network.",
            "Fund the buses properly as part of this. That's the bit that makes it fair.",
        ],
        "anti": [
            "The people on Route 14 are mostly people without a car. They're the ones paying the price here.",
            "Tanner Street is already gridlocked at school pickup. Add the diverted traffic and it's chaos.",
            "Seven minutes more on a bus is a lot if you're a carer doing four trips a day.",
            "Eastbank gets the diverted cars and the slower bus. Riverside gets the nice new promenade. Hmm.",
        ],
        "mid": [
            "Does the diversion affect the night buses too, or only daytime Route 14?",
            "Will the Transit Authority publish the modelling behind the 6 to 8 minute estimate?",
            "I'd support it with a real bus lane on the Eastbank side. Without that, not sure.",
            "What happens to the Old Quay stop while the works are going on?",
        ],
    },
    "access": {
        "pro": [
            "Good access for disabled residents and a car-free road aren't in conflict. Permit schemes work in plenty of cities.",
            "The plan keeps vehicle access for blue badge holders. It needs detail, not scrapping.",
            "Level paving and safer crossings would help wheelchair users more than the current pavement ever has.",
            "Ask disabled cyclists and wheelchair users on the Quay too. Not every disabled person drives.",
        ],
        "anti": [
            "'Managed access' is council-speak for a form you'll have to fill in every year.",
            "Taxis are a lifeline for a lot of older people on the Quay. Are they exempt or not?",
            "My mum can't walk 300 metres to a bus stop. Nobody on the top table seems to get that.",
            "Permit schemes always start generous and get tightened once the cameras are in.",
        ],
        "mid": [
            "Will the permit cover carers and home visits, or only the badge holder's own car?",
            "What's the process if you need temporary access, say after an operation?",
            "School-run families are going to want answers on this too.",
            "The equality impact assessment should be published alongside the plan.",
        ],
    },
    "hearing": {
        "pro": [
            "Packed room, strong feelings, but I heard more common ground than I expected.",
            "The young people who spoke at the end were the best part of the evening.",
            "Lots of heat tonight, but most of the concerns were about details that can be fixed.",
            "Good to see councillors actually sit and listen for three hours.",
        ],
        "anti": [
            "Two minutes each at the mic, and the decision feels like it was made months ago.",
            "The top table spent more time on their slides than on our questions.",
            "Half the room couldn't hear the speakers at the back. Not a great look for a consultation.",
            "If tonight was a consultation, why were the bollard designs already printed?",
        ],
        "mid": [
            "Both sides clapped for the delivery window idea. Start there.",
            "Loud meeting, but a useful one. The blue badge question needs a written answer.",
            "Nobody asked about the construction phase, and that's the part that will hurt traders first.",
            "It would help if the council published every question from tonight with a written answer.",
        ],
    },
    "rumour": {
        "pro": [
            "Read section 4.2 before you share anything. Emergency vehicles keep access.",
            "Misinformation is the last thing this debate needs. Check the source.",
            "Please stop forwarding the ambulance screenshot. It's wrong.",
            "Disagree with the plan all you like, but argue with what it actually says.",
        ],
        "anti": [
            "There are plenty of real problems with this plan without needing made-up ones.",
            "The ambulance claim is rubbish, but the council should have been clearer from the start.",
            "Don't let one false rumour discredit every genuine concern.",
            "I oppose the plan and the ambulance post is still nonsense. Both things can be true.",
        ],
        "mid": [
            "Where did the £2m figure come from? I can't find it anywhere in the papers.",
            "Good fact check. More of this, please, from all the local outlets.",
            "Has anyone asked the ambulance service directly? That would settle it.",
            "Screenshots without a source shouldn't be taken seriously, whichever side they're on.",
        ],
    },
    "vote": {
        "pro": [
            "Disappointing, but June isn't far off. Keep emailing your councillors.",
            "A better scheme in June is worth the wait if permits and deliveries get sorted.",
            "Delay is fine. Dropping it would not be.",
            "If the extra weeks get us a proper bus lane too, I'll take it.",
        ],
        "anti": [
            "Deferral is a start. Now scrap the September start date.",
            "Good. Use the time to talk to Eastbank properly this time.",
            "A few weeks won't fix a plan that ignores the other side of the bridge.",
            "Glad the committee listened. Now publish the Tanner Street modelling.",
        ],
        "mid": [
            "Sensible to wait for the costed delivery window and permit scheme.",
            "Curious to see what actually changes in the officer report by June.",
            "A deferral with clear conditions is better than a rushed yes or no.",
            "Will the June meeting be open to public questions again?",
        ],
    },
}

# Replies that fit most posts in the thread, whatever the phase.
GENERIC_REPLIES = {
    "pro": [
        "Can't wait to walk the whole riverside without breathing exhaust.",
        "The status quo isn't neutral either. People get hurt on that road now.",
        "Try it, measure it, fix what's wrong. That's all anyone is asking.",
        "My street is already quieter on market days and nobody's shop has closed because of it.",
        "Every objection I've heard so far has a practical fix. None of them is a reason to do nothing.",
        "Kids on the Quay deserve a road they can actually cross.",
        "Cities that did this twenty years ago wouldn't dream of going back.",
        "It's a trial. If the sky falls in, they can take the bollards out.",
    ],
    "anti": [
        "Tell that to the people on Tanner Street.",
        "It's always the people with the least say who end up paying for schemes like this.",
        "Nobody is against clean air. People are against being ignored.",
        "Show me the plan for the other side of the bridge and I'll listen.",
        "Easy to be relaxed about it if you don't need a car to get to work.",
        "The council has a habit of calling things trials and then never ending them.",
        "Genuinely, who asked for this? Not the people I speak to on my street.",
        "Lovely idea on paper. Less lovely at 8am on Tanner Street.",
    ],
    "mid": [
        "Both sides have a point here, which is exactly why the detail matters.",
        "I'd like to see this answered in writing by the council, not just in a tweet.",
        "Is there a source for that? Not doubting it, just want to read it myself.",
        "Feels like the delivery window question keeps coming up. Someone should just answer it.",
        "Reasonable point, but it depends a lot on how the permits actually work.",
        "Hard to judge without seeing the Tanner Street numbers.",
        "Worth remembering nothing has been decided yet.",
        "This is the kind of detail the consultation should be collecting.",
    ],
}
# Institutional accounts reply in an institutional voice.
ORG_REPLIES = {
    "pro": [
        "Thanks for raising this. We'll put it to officers at our next meeting.",
        "We'd encourage everyone to respond to the formal consultation as well as posting here.",
        "Our volunteers are happy to talk this through. Message us and we'll call you back.",
        "This is exactly the kind of detail we've asked the council to publish.",
        "We hear this concern a lot, and we share it. Guaranteed access has to be in writing.",
        "Our full consultation response is on our website if anyone wants to read it.",
    ],
    "anti": [
        "Thank you. This is one of the issues in our submission to the council.",
        "If you're affected, please email us. We're collecting examples to put to the committee.",
        "We'd ask the council to answer this publicly rather than in private meetings.",
        "Members have raised the same point with us several times this week.",
        "Our submission is on our website, including the questions we still want answered.",
        "We'll raise this directly with officers. Thank you for flagging it.",
    ],
    "mid": [
        "For context, the figures in our report are averages over a two-week period. Section 3 explains the limits.",
        "Our full dataset is available on request for anyone who wants to check it.",
        "We'd caution against reading too much into a single number. The ranges matter.",
        "Good question. We didn't measure that, and we say so in the report.",
    ],
}
REDDIT_MEDIA_FOOTERS = [
    "Full article on our site. We'll be reading the comments for follow-up questions.",
    "Our reporters will be in this thread for the next hour.",
    "courier:Tell us how this affects you. We may feature replies in tomorrow's paper.",
    "Discussion thread. Please keep it civil.",
    "We'll update this post as we learn more.",
    "Details in the full piece. Questions welcome below.",
    "Is this affecting you? Our newsroom wants to hear from you.",
    "Posting here for readers who don't use the app.",
    "Tips and corrections welcome by message.",
    "radio:Audio of the full segment is on our website.",
    "Comments are open below. Mods, feel free to merge with the other thread.",
    "More detail in the full report, including what the council told us.",
]

PREFIX = {
    "agree": [
        "This.",
        "Exactly right.",
        "Couldn't agree more.",
        "Glad someone said it.",
        "Spot on.",
        "Well put.",
        "Agree with every word.",
        "Yes, and I'd add one thing.",
        "Worth reading in full.",
        "Same experience here.",
        "100%.",
        "Said better than I could.",
        "Hear, hear.",
    ],
    "disagree": [
        "With respect, no.",
        "That isn't the whole picture.",
        "I'm not sure that follows.",
        "I get the frustration, but",
        "That's a stretch.",
        "Respectfully disagree.",
        "I see where you're coming from, but",
        "I'd push back on this.",
        "Hmm, no.",
        "Not convinced.",
        "I see it differently.",
    ],
    "neutral": [
        "Interesting.",
        "Good point, though",
        "Useful context.",
        "Thanks for sharing.",
        "Fair enough, but",
        "Noted.",
        "Bookmarking this.",
        "Fair.",
        "OK, but",
    ],
    # only used in front of a question
    "question": [
        "Genuine question:",
        "Worth asking:",
        "One thing I'd like to know:",
        "Related question:",
        "Question for the council:",
        "Serious question:",
    ],
}
# Officials and the lab speak only for themselves: no borrowed opinions.
OWN_LINES_ONLY = {"grace", "priya"}
# Reporters ask questions rather than take sides.
JOURNALISTS = {"maya", "sofia"}
# Ordinary residents and traders write longer, chattier Reddit posts.
CHATTY = {"tom", "aisha", "frank", "marcus", "nadia", "rosa"}
# Councillors and institutions don't downvote ordinary residents.
PUBLIC_FIGURES = {"reyes", "marsh", "rra", "eng", "chamber", "cycle", "lab"}
AFFILIATED = {
    ("lab", "priya"),
    ("priya", "lab"),
    ("courier", "maya"),
    ("maya", "courier"),
    ("rra", "rosa"),
    ("rosa", "rra"),
    ("cycle", "aisha"),
}
REDDIT_CLOSERS = [
    "What do people think?",
    "Anyone else on the Quay feel the same?",
    "Curious what Eastbank folks make of this.",
    "Am I missing something?",
    "Happy to be corrected if I've misread the plan.",
    "Would love to hear from traders on this.",
    "Thoughts?",
    "Has anyone actually asked the council this?",
    "Genuinely want to hear the other side.",
    "Edit: typo.",
]
TAGS = {
    "pro": ["#CarFreeRiverRoad", "#RiverRoad", "#Harbourton"],
    "anti": ["#RiverRoadMatters", "#Eastbank", "#RiverRoad"],
    "mid": ["#RiverRoad", "#Harbourton", "#HarbourtonCouncil"],
    "media": ["#RiverRoad", "#Harbourton", "#HarbourtonCouncil"],
}

STANCE = {i: a[3] for i, a in enumerate(AGENTS)}
LABEL = {i: a[2] for i, a in enumerate(AGENTS)}


# ---------------------------------------------------------------------------
# Graph
# ---------------------------------------------------------------------------
def build_graph():
    nodes = []
    uid = {}

    def node(key, name, label, summary, attributes):
        uid[key] = new_uuid()
        nodes.append(
            {
                "key": key,
                "uuid": uid[key],
                "name": name,
                "labels": ["Entity", label],
                "summary": summary,
                "attributes": attributes,
            }
        )

    # Agents first, in agent_id order.
    person_attrs = {
        "maya": ("Transport and city hall reporter", "Harbourton Courier", "Riverside"),
        "reyes": (
            "Councillor, Riverside ward; chair of the Transport Committee",
            "Harbourton City Council",
            "Riverside",
        ),
        "marsh": (
            "Councillor, Eastbank ward; opposition transport spokesperson",
            "Harbourton City Council",
            "Eastbank",
        ),
        "priya": ("Director of the Urban Mobility Lab", "Harbourton University", "Northgate"),
        "tom": ("Owner of Gallagher's Hardware", "Gallagher's Hardware", "Old Quay"),
        "aisha": (
            "A&E nurse at Harbourton General Hospital",
            "Harbourton Cycling Campaign",
            "Old Quay",
        ),
        "frank": ("Retired ferry engineer", "Riverside Residents' Association", "Old Quay"),
        "sofia": (
            "Freelance journalist, author of the Harbour Notes newsletter",
            "independent",
            "Eastbank",
        ),
        "marcus": ("Self-employed courier driver", "independent", "Eastbank"),
        "rosa": (
            "Chair of the Riverside Residents' Association; secondary school teacher",
            "Riverside Residents' Association",
            "Old Quay",
        ),
        "grace": ("Communications manager", "Harbourton Transit Authority", "Millbrook"),
        "nadia": ("Co-owner of Quayside Coffee Co.", "Quayside Coffee Co.", "Old Quay"),
    }
    person_summary = {
        "maya": "Maya Okafor is the Harbourton Courier's transport and city hall reporter. She broke the story of the River Road Car-Free Plan and live-reported the consultation hearing.",
        "reyes": "Daniel Reyes is the councillor for Riverside ward and chair of the Transport Committee. He is the lead sponsor of the River Road Car-Free Plan.",
        "marsh": "Helen Marsh is the councillor for Eastbank and the opposition's transport spokesperson. She opposes the River Road Car-Free Plan over traffic displacement onto Tanner Street.",
        "priya": "Priya Natarajan directs the Urban Mobility Lab at Harbourton University, which produced the River Road traffic and air quality baseline.",
        "tom": "Tom Gallagher runs Gallagher's Hardware on River Road, a family business opened by his grandfather in 1961. He fears the closure will cost him customers who buy heavy goods.",
        "aisha": "Aisha Bello is an A&E nurse who cycles River Road to work. She supports the car-free plan and is a member of the Harbourton Cycling Campaign.",
        "frank": "Frank Delaney is a retired ferry engineer who has lived on the Old Quay for forty years. His wife uses a wheelchair, and he worries about access under the plan.",
        "sofia": "Sofia Lindqvist is a freelance journalist who writes the Harbour Notes newsletter. She worked at the Harbourton Beacon until January 2025.",
        "marcus": "Marcus Chen is a self-employed courier driver based in Eastbank who makes several drops on River Road every day.",
        "rosa": "Rosa Fernandes chairs the Riverside Residents' Association, which has campaigned for a quieter River Road for six years.",
        "grace": "Grace Mbeki is communications manager at the Harbourton Transit Authority and answers public questions about the Route 14 diversion.",
        "nadia": "Nadia Haddad co-owns Quayside Coffee Co. on the Old Quay and supports the plan, while urging help for traders who depend on car access.",
    }
    org_info = {
        "rra": (
            "Residents' association",
            1987,
            930,
            "Old Quay",
            "The Riverside Residents' Association represents households on the Old Quay and River Road. It backs the car-free trial and wants guaranteed access for residents with mobility needs.",
        ),
        "eng": (
            "Neighbourhood group",
            2016,
            310,
            "Eastbank",
            "The Eastbank Neighbours' Group is a volunteer group on the east side of Millbrook Bridge. It opposes the plan, expecting diverted traffic on Tanner Street past St Anne's Primary.",
        ),
        "chamber": (
            "Business association",
            1904,
            640,
            "Harbourton",
            "The Harbourton Chamber of Commerce represents about 640 local businesses. It opposes the plan as drafted and asks for a loading scheme and a hardship fund.",
        ),
        "cycle": (
            "Campaign group",
            2009,
            1450,
            "Harbourton",
            "The Harbourton Cycling Campaign is a volunteer-run group campaigning for safe streets. It strongly supports a car-free River Road.",
        ),
        "lab": (
            "University research lab",
            2014,
            18,
            "Harbourton University",
            "The Urban Mobility Lab at Harbourton University studies how people move through cities. Commissioned by the council, it published the River Road traffic and air quality baseline.",
        ),
    }
    media_info = {
        "courier": (
            "Daily newspaper",
            1871,
            "print and online",
            48000,
            "The Harbourton Courier is the city's daily newspaper. It has covered the River Road plan closely, including a fact check of the ambulance rumour.",
        ),
        "radio": (
            "Local radio station",
            1989,
            "97.4 FM and streaming",
            65000,
            "River City Radio is Harbourton's local radio station. Its Morning Show hosted phone-ins and interviews with both councillors about River Road.",
        ),
        "beacon": (
            "Online news site",
            2017,
            "online",
            22000,
            "The Harbourton Beacon is a reader-funded online news site known for explainers and polls. It traced the origin of the ambulance rumour.",
        ),
    }
    for key, name, label, stance, _w in AGENTS:
        if label == "Person":
            role, aff, area = person_attrs[key]
            node(
                key,
                name,
                label,
                person_summary[key],
                {
                    "role": role,
                    "affiliation": aff,
                    "neighbourhood": area,
                    "stance_on_river_road_plan": {
                        "pro": "supports",
                        "anti": "opposes",
                        "mid": "undecided",
                    }[stance],
                },
            )
        elif label == "Organization":
            kind, founded, members, base, summ = org_info[key]
            node(
                key,
                name,
                label,
                summ,
                {"org_type": kind, "founded": founded, "members": members, "based_in": base},
            )
        else:
            kind, founded, channel, audience, summ = media_info[key]
            node(
                key,
                name,
                label,
                summ,
                {
                    "outlet_type": kind,
                    "founded": founded,
                    "channel": channel,
                    "weekly_audience": audience,
                },
            )

    node(
        "council",
        "Harbourton City Council",
        "GovernmentAgency",
        "Harbourton City Council is the local authority for Harbourton. Its Transport Committee is due to decide on the River Road Car-Free Plan.",
        {"jurisdiction": "City of Harbourton", "seats": 51, "leader": "Cllr Joan Pryce"},
    )
    node(
        "hta",
        "Harbourton Transit Authority",
        "GovernmentAgency",
        "The Harbourton Transit Authority runs the city's bus network, including Route 14 along River Road.",
        {"jurisdiction": "Harbourton and district", "routes": 38, "fleet_size": 212},
    )
    node(
        "highways",
        "Highways and Streets Department",
        "GovernmentAgency",
        "The council's Highways and Streets Department would install the bollards, bus gate and signage for the River Road trial.",
        {"jurisdiction": "City of Harbourton", "parent_body": "Harbourton City Council"},
    )
    node(
        "riverroad",
        "River Road",
        "Location",
        "River Road runs 1.2 km along the north bank of the Harbour River from Millbrook Bridge to the Old Quay steps. It carries about 11,400 motor vehicles on a weekday.",
        {"location_type": "street", "length_km": 1.2, "district": "Old Quay"},
    )
    node(
        "oldquay",
        "Old Quay",
        "Location",
        "The Old Quay is a historic riverside neighbourhood of terraced housing, small shops and the Saturday market.",
        {"location_type": "neighbourhood", "population": 6200},
    )
    node(
        "eastbank",
        "Eastbank",
        "Location",
        "Eastbank is a residential district across Millbrook Bridge. Residents fear diverted traffic on Tanner Street.",
        {"location_type": "district", "population": 14800},
    )
    node(
        "millbrook",
        "Millbrook Bridge",
        "Location",
        "Millbrook Bridge links River Road with Eastbank and marks the western end of the proposed car-free section.",
        {"location_type": "bridge", "opened": 1932},
    )
    node(
        "plan",
        "River Road Car-Free Plan",
        "Policy",
        "The River Road Car-Free Plan would close River Road to private cars between Millbrook Bridge and the Old Quay steps for an 18-month trial. Buses, cycles and emergency vehicles keep access.",
        {
            "status": "under consultation",
            "published": "2025-05-06",
            "trial_length_months": 18,
            "proposed_start": "2025-09-01",
            "budget_gbp": 400000,
        },
    )
    node(
        "route14",
        "Route 14 Bus Diversion",
        "Policy",
        "The Route 14 Bus Diversion would reroute some Route 14 journeys over Millbrook Bridge through Eastbank if the River Road trial goes ahead, adding 6 to 8 minutes at peak.",
        {"status": "proposed", "added_minutes_peak": "6-8", "added_minutes_offpeak": "2-4"},
    )
    node(
        "hardware",
        "Gallagher's Hardware",
        "Business",
        "Gallagher's Hardware is a family-run hardware shop on River Road, opened in 1961.",
        {
            "sector": "retail (hardware)",
            "employees": 6,
            "founded": 1961,
            "address": "112 River Road",
        },
    )
    node(
        "coffee",
        "Quayside Coffee Co.",
        "Business",
        "Quayside Coffee Co. is an independent cafe on the Old Quay, about 30 metres from River Road.",
        {"sector": "hospitality", "employees": 9, "founded": 2019, "address": "3 Quay Lane"},
    )
    node(
        "market",
        "Riverside Saturday Market",
        "Business",
        "The Riverside Saturday Market fills River Road with about 60 stalls every Saturday, when the road is already closed to traffic.",
        {"sector": "street market", "stalls": 60, "founded": 2011},
    )
    node(
        "hearing",
        "River Road Consultation Hearing",
        "Event",
        "A public hearing on the River Road Car-Free Plan held at the Guildhall, attended by more than 140 people.",
        {"venue": "Harbourton Guildhall", "date": "2025-05-06", "attendance": 140},
    )

    for i, n in enumerate(nodes):
        n["created_at"] = zts(
            GRAPH_BUILT
            + timedelta(seconds=11 * i + rng.randint(0, 9), microseconds=rng.randint(0, 999999))
        )

    episodes = [new_uuid() for _ in range(9)]

    # src, NAME, dst, fact, valid_at, invalid_at
    E = [
        (
            "reyes",
            "PROPOSED",
            "plan",
            "Daniel Reyes proposed the River Road Car-Free Plan.",
            day(2025, 5, 6),
            None,
        ),
        (
            "reyes",
            "MEMBER_OF",
            "council",
            "Daniel Reyes is a member of Harbourton City Council, representing Riverside ward.",
            day(2017, 5, 4),
            None,
        ),
        (
            "marsh",
            "MEMBER_OF",
            "council",
            "Helen Marsh is a member of Harbourton City Council, representing Eastbank.",
            day(2013, 5, 2),
            None,
        ),
        (
            "marsh",
            "OPPOSES",
            "plan",
            "Helen Marsh opposes the River Road Car-Free Plan because of traffic displacement into Eastbank.",
            day(2025, 5, 6),
            None,
        ),
        (
            "marsh",
            "CRITICIZES",
            "reyes",
            "Helen Marsh criticizes Daniel Reyes for publishing the plan without consulting Eastbank residents.",
            day(2025, 5, 6),
            None,
        ),
        (
            "council",
            "CONSIDERS",
            "plan",
            "Harbourton City Council's Transport Committee is considering the River Road Car-Free Plan.",
            day(2025, 5, 6),
            None,
        ),
        (
            "plan",
            "APPLIES_TO",
            "riverroad",
            "The River Road Car-Free Plan applies to River Road between Millbrook Bridge and the Old Quay steps.",
            day(2025, 5, 6),
            None,
        ),
        (
            "riverroad",
            "LOCATED_IN",
            "oldquay",
            "River Road runs through the Old Quay.",
            day(1890, 1, 1),
            None,
        ),
        (
            "millbrook",
            "CONNECTS",
            "riverroad",
            "Millbrook Bridge connects River Road with Eastbank.",
            day(1932, 6, 1),
            None,
        ),
        (
            "millbrook",
            "LOCATED_IN",
            "eastbank",
            "The eastern landing of Millbrook Bridge is located in Eastbank.",
            day(1932, 6, 1),
            None,
        ),
        (
            "maya",
            "WORKS_FOR",
            "courier",
            "Maya Okafor works for the Harbourton Courier as its transport reporter.",
            day(2018, 2, 12),
            None,
        ),
        (
            "courier",
            "REPORTS_ON",
            "plan",
            "The Harbourton Courier reports on the River Road Car-Free Plan.",
            day(2025, 5, 6),
            None,
        ),
        (
            "radio",
            "REPORTS_ON",
            "plan",
            "River City Radio reports on the River Road Car-Free Plan.",
            day(2025, 5, 6),
            None,
        ),
        (
            "beacon",
            "REPORTS_ON",
            "route14",
            "The Harbourton Beacon reports on the Route 14 Bus Diversion.",
            day(2025, 5, 6),
            None,
        ),
        (
            "sofia",
            "WORKS_FOR",
            "beacon",
            "Sofia Lindqvist worked for the Harbourton Beacon as a senior reporter.",
            day(2019, 3, 1),
            day(2025, 1, 31),
        ),
        (
            "sofia",
            "REPORTS_ON",
            "plan",
            "Sofia Lindqvist reports on the River Road Car-Free Plan in her Harbour Notes newsletter.",
            day(2025, 5, 6),
            None,
        ),
        (
            "maya",
            "INTERVIEWED",
            "tom",
            "Maya Okafor interviewed Tom Gallagher about the closure's impact on Gallagher's Hardware.",
            day(2025, 5, 6),
            None,
        ),
        (
            "priya",
            "WORKS_FOR",
            "lab",
            "Priya Natarajan leads the Urban Mobility Lab as its director.",
            day(2014, 9, 1),
            None,
        ),
        (
            "lab",
            "EVALUATES",
            "plan",
            "The Urban Mobility Lab evaluated traffic and air quality for the River Road Car-Free Plan.",
            day(2025, 3, 3),
            None,
        ),
        (
            "lab",
            "ADVISES",
            "reyes",
            "The Urban Mobility Lab advises Daniel Reyes on the evidence behind the plan.",
            day(2025, 3, 3),
            None,
        ),
        (
            "reyes",
            "ALLIES_WITH",
            "cycle",
            "Daniel Reyes allies with the Harbourton Cycling Campaign on the car-free River Road proposal.",
            day(2024, 10, 15),
            None,
        ),
        (
            "cycle",
            "CITES",
            "lab",
            "The Harbourton Cycling Campaign cites the Urban Mobility Lab's traffic counts in its campaigning.",
            day(2025, 5, 6),
            None,
        ),
        (
            "council",
            "FUNDS",
            "lab",
            "Harbourton City Council funds the Urban Mobility Lab's River Road baseline study.",
            day(2025, 1, 20),
            None,
        ),
        (
            "cycle",
            "SUPPORTS",
            "plan",
            "The Harbourton Cycling Campaign supports the River Road Car-Free Plan.",
            day(2025, 5, 6),
            None,
        ),
        (
            "aisha",
            "MEMBER_OF",
            "cycle",
            "Aisha Bello is a member of the Harbourton Cycling Campaign.",
            day(2021, 4, 10),
            None,
        ),
        (
            "aisha",
            "SUPPORTS",
            "plan",
            "Aisha Bello supports the River Road Car-Free Plan.",
            day(2025, 5, 6),
            None,
        ),
        (
            "tom",
            "OWNS",
            "hardware",
            "Tom Gallagher owns Gallagher's Hardware.",
            day(2003, 7, 1),
            None,
        ),
        (
            "hardware",
            "LOCATED_IN",
            "riverroad",
            "Gallagher's Hardware is located on River Road.",
            day(1961, 4, 1),
            None,
        ),
        (
            "tom",
            "MEMBER_OF",
            "chamber",
            "Tom Gallagher is a member of the Harbourton Chamber of Commerce.",
            day(2004, 1, 1),
            None,
        ),
        (
            "chamber",
            "SUPPORTS",
            "plan",
            "The Harbourton Chamber of Commerce supported the early consultation draft of the River Road plan.",
            day(2024, 11, 20),
            day(2025, 4, 29),
        ),
        (
            "chamber",
            "OPPOSES",
            "plan",
            "The Harbourton Chamber of Commerce opposes the River Road Car-Free Plan as currently drafted.",
            day(2025, 4, 29),
            None,
        ),
        (
            "market",
            "LOCATED_IN",
            "riverroad",
            "The Riverside Saturday Market takes place on River Road.",
            day(2011, 5, 1),
            None,
        ),
        (
            "nadia",
            "OWNS",
            "coffee",
            "Nadia Haddad co-owns Quayside Coffee Co.",
            day(2019, 6, 1),
            None,
        ),
        (
            "nadia",
            "SUPPORTS",
            "plan",
            "Nadia Haddad supports the River Road Car-Free Plan.",
            day(2025, 5, 6),
            None,
        ),
        (
            "rosa",
            "LEADS",
            "rra",
            "Rosa Fernandes leads the Riverside Residents' Association as its chair.",
            day(2020, 9, 1),
            None,
        ),
        (
            "rra",
            "SUPPORTS",
            "plan",
            "The Riverside Residents' Association supports the River Road Car-Free Plan.",
            day(2025, 5, 6),
            None,
        ),
        (
            "eng",
            "OPPOSES",
            "plan",
            "The Eastbank Neighbours' Group opposes the River Road Car-Free Plan.",
            day(2025, 5, 6),
            None,
        ),
        (
            "marsh",
            "ALLIES_WITH",
            "eng",
            "Helen Marsh allies with the Eastbank Neighbours' Group against the closure.",
            day(2025, 5, 6),
            None,
        ),
        (
            "frank",
            "CRITICIZES",
            "plan",
            "Frank Delaney criticizes the River Road Car-Free Plan for leaving blue badge access undefined.",
            day(2025, 5, 6),
            None,
        ),
        (
            "frank",
            "MEMBER_OF",
            "rra",
            "Frank Delaney is a member of the Riverside Residents' Association.",
            day(1990, 1, 1),
            None,
        ),
        (
            "grace",
            "WORKS_FOR",
            "hta",
            "Grace Mbeki works for the Harbourton Transit Authority as communications manager.",
            day(2016, 8, 15),
            None,
        ),
        (
            "hta",
            "PROPOSED",
            "route14",
            "The Harbourton Transit Authority proposed the Route 14 Bus Diversion.",
            day(2025, 5, 6),
            None,
        ),
        (
            "route14",
            "DEPENDS_ON",
            "plan",
            "The Route 14 Bus Diversion depends on the River Road Car-Free Plan going ahead.",
            day(2025, 5, 6),
            None,
        ),
        (
            "marcus",
            "DELIVERS_TO",
            "hardware",
            "Marcus Chen delivers parcels to Gallagher's Hardware several times a week.",
            day(2022, 2, 1),
            None,
        ),
        (
            "highways",
            "IMPLEMENTS",
            "plan",
            "The Highways and Streets Department would implement the River Road Car-Free Plan.",
            day(2025, 5, 6),
            None,
        ),
        (
            "plan",
            "DISCUSSED_AT",
            "hearing",
            "The River Road Car-Free Plan was discussed at the River Road Consultation Hearing.",
            day(2025, 5, 6),
            None,
        ),
    ]
    edges = []
    ep_for = {
        "plan": episodes[0],
        "route14": episodes[1],
        "hearing": episodes[2],
        "lab": episodes[3],
        "chamber": episodes[4],
        "hardware": episodes[4],
        "courier": episodes[5],
        "rra": episodes[6],
        "eng": episodes[7],
    }
    for i, (s, name, d, fact, valid, invalid) in enumerate(E):
        eps = [ep_for.get(d) or ep_for.get(s) or episodes[8]]
        if rng.random() < 0.35:
            extra = rng.choice(episodes)
            if extra not in eps:
                eps.append(extra)
        created = GRAPH_BUILT + timedelta(
            minutes=5, seconds=9 * i + rng.randint(0, 7), microseconds=rng.randint(0, 999999)
        )
        edges.append(
            {
                "uuid": new_uuid(),
                "name": name,
                "fact": fact,
                "fact_type": name,
                "source_node_uuid": uid[s],
                "target_node_uuid": uid[d],
                "attributes": {},
                "created_at": zts(created),
                "valid_at": valid,
                "invalid_at": invalid,
                "expired_at": zts(created + timedelta(seconds=2, microseconds=418000))
                if invalid
                else None,
                "episodes": eps,
            }
        )
    graph_id = "mirofish_" + new_uuid().replace("-", "")[:16]
    out_nodes = [
        {k: n[k] for k in ("uuid", "name", "labels", "summary", "attributes", "created_at")}
        for n in nodes
    ]
    return {"graph_id": graph_id, "nodes": out_nodes, "edges": edges}, uid


# ---------------------------------------------------------------------------
# Simulation
# ---------------------------------------------------------------------------
class Writer:
    """Chooses text so no line is used twice and every composed string is unique."""

    def __init__(self):
        self.used_lines = set()  # (key, idx) for people; (key, idx, platform) for orgs/media
        self.used_shared = set()
        self.used_texts = set()
        self.used_closers = set()
        self.prefix_uses = {}
        self.used_footers = set()

    def own_line(self, aid, rnd, platform):
        key = AGENTS[aid][0]
        per_platform = LABEL[aid] != "Person"
        best = []
        for idx, line in enumerate(LINES.get(key, [])):
            lo, hi = line[0], line[1]
            tag = (key, idx, platform) if per_platform else (key, idx)
            if lo <= rnd <= hi and tag not in self.used_lines:
                best.append((lo, idx, tag, line))
        if not best:
            return None
        top = max(b[0] for b in best)
        cands = [b for b in best if b[0] == top]
        lo, idx, tag, line = rng.choice(cands)
        self.used_lines.add(tag)
        return line

    def shared(self, stance, rnd, questions_only=False):
        if stance not in ("pro", "anti", "mid"):
            stance = "mid"
        for r in (rnd, rnd - 1, rnd - 2):
            if r < 1 or r > ROUNDS:
                continue
            pool = [
                s
                for s in SHARED[TOPIC_OF_ROUND[r]][stance]
                if s not in self.used_shared and (s.endswith("?") or not questions_only)
            ]
            if pool:
                s = rng.choice(pool)
                self.used_shared.add(s)
                return s
        return None

    def unique(self, text):
        if text in self.used_texts:
            return None
        self.used_texts.add(text)
        return text

    def footer(self, key):
        pool = [
            f
            for f in REDDIT_MEDIA_FOOTERS
            if f not in self.used_footers
            and (":" not in f.split(" ", 1)[0] or f.split(":", 1)[0] == key)
        ]
        if not pool:
            return None
        f = rng.choice(pool)
        self.used_footers.add(f)
        return f.split(":", 1)[1] if ":" in f.split(" ", 1)[0] else f

    def pick_from(self, options):
        pool = [g for g in options if g not in self.used_shared]
        if not pool:
            return None
        g = rng.choice(pool)
        self.used_shared.add(g)
        return g

    def generic(self, stance):
        pool = [g for g in GENERIC_REPLIES[stance] if g not in self.used_shared]
        if not pool:
            return None
        g = rng.choice(pool)
        self.used_shared.add(g)
        return g

    def prefix(self, kind):
        pool = PREFIX[kind]
        low = min(self.prefix_uses.get(p, 0) for p in pool)
        p = rng.choice([p for p in pool if self.prefix_uses.get(p, 0) == low])
        self.prefix_uses[p] = self.prefix_uses.get(p, 0) + 1
        return p

    def closer(self):
        pool = [c for c in REDDIT_CLOSERS if c not in self.used_closers]
        if not pool:
            return None
        c = rng.choice(pool)
        self.used_closers.add(c)
        return c


W = Writer()


def relation(a, b):
    sa, sb = STANCE[a], STANCE[b]
    if "media" in (sa, sb) or "mid" in (sa, sb):
        return "neutral"
    return "agree" if sa == sb else "disagree"


def tagged(text, aid, limit=280):
    if rng.random() < 0.3:
        tag = rng.choice(TAGS[STANCE[aid]])
        if tag.lower() not in text.lower() and len(text) + len(tag) + 1 <= limit:
            return text + " " + tag
    return text


def compose_post(aid, rnd, platform):
    label = LABEL[aid]
    line = W.own_line(aid, rnd, platform)
    if label == "MediaOutlet":
        if line is None:
            return None
        head, dek = line[2], line[3]
        if platform == "twitter":
            return W.unique(tagged(media_text(head, dek), aid))
        outlet = AGENTS[aid][1]
        footer = W.footer(AGENTS[aid][0]) or dek
        return W.unique(f"{head} ({outlet})\n\n{footer}")
    if line is None:
        if label != "Person" or AGENTS[aid][0] in OWN_LINES_ONLY:
            return None
        s = W.shared(STANCE[aid], rnd, AGENTS[aid][0] in JOURNALISTS)
        if s is None:
            return None
        text = s
    else:
        text = line[2]
    if platform == "twitter":
        return W.unique(tagged(text, aid))
    # Reddit posts are longer: add a second thought and sometimes a question.
    parts = [text]
    key = AGENTS[aid][0]
    if key in CHATTY and not text.endswith("?") and rng.random() < 0.5:
        # a second thought on the same theme as the first
        extra = W.shared(STANCE[aid], line[0] if line else rnd)
        if extra:
            parts.append(extra)
    body = " ".join(parts)
    if (key in CHATTY or key == "sofia") and rng.random() < 0.45:
        c = W.closer()
        if c:
            body = body + "\n\n" + c
    return W.unique(body)


KEEP_CAPS = {
    "I",
    "I'm",
    "I'd",
    "I've",
    "I'll",
    "Eastbank",
    "Tanner",
    "River",
    "Route",
    "Harbourton",
    "NO2",
    "Cllr",
    "Old",
    "Millbrook",
    "Guildhall",
    "June",
    "September",
    "Facebook",
    "STATEMENT:",
    "NEW",
    "BREAKING:",
    "FACT",
    "LIVE:",
}


def lower_first(text):
    word = text.split(" ", 1)[0]
    if (
        word in KEEP_CAPS
        or (len(word) > 1 and word.isupper())
        or word[0].isdigit()
        or word[0] in "'\""
    ):
        return text
    return text[0].lower() + text[1:]


def media_text(head, dek):
    return head + (" " if head.endswith(("?", "!", ".")) else ". ") + dek


def compose_reply(aid, target_author, target_round, rnd, platform):
    """Text for a comment (reddit) or quote (twitter)."""
    rel = relation(aid, target_author)
    if LABEL[aid] != "Person" or AGENTS[aid][0] in OWN_LINES_ONLY:
        line = W.own_line(aid, rnd, platform)
        if line is not None:
            body = line[2] if len(line) == 3 else media_text(line[2], line[3])
        elif LABEL[aid] == "Organization":
            body = W.pick_from(ORG_REPLIES[STANCE[aid]])
        else:
            body = None
        if body is None:
            return None
    else:
        qonly = AGENTS[aid][0] in JOURNALISTS
        body = W.shared(STANCE[aid], target_round, qonly) or W.shared(STANCE[aid], rnd, qonly)
        if body is None or rng.random() < 0.25:
            body = W.generic(STANCE[aid]) or body
        if body is None:
            line = W.own_line(aid, rnd, platform)
            if line is None:
                return None
            body = line[2]
    if LABEL[aid] != "Person" or AGENTS[aid][0] in OWN_LINES_ONLY:
        return W.unique(body)
    for _ in range(6):
        r = rng.random()
        if r < 0.55:
            kind = "question" if rel == "neutral" and body.endswith("?") else rel
            pre = W.prefix(kind)
            joined = pre.endswith((",", "but", "though", ":"))
            if joined and " but " in body:
                continue
            text = pre + " " + (lower_first(body) if joined else body)
        elif r < 0.75 and first_name(target_author) and platform == "reddit":
            text = first_name(target_author) + ", " + lower_first(body)
        else:
            text = body
        if platform == "twitter" and len(text) > 280:
            text = body
        u = W.unique(text)
        if u:
            return u
    return None


TW_WEIGHTS = {
    "CREATE_POST": 26,
    "LIKE_POST": 30,
    "REPOST": 12,
    "QUOTE_POST": 13,
    "FOLLOW": 13,
    "DO_NOTHING": 5,
}
RD_WEIGHTS = {
    "CREATE_POST": 8,
    "CREATE_COMMENT": 28,
    "LIKE_POST": 18,
    "DISLIKE_POST": 26,
    "FOLLOW": 10,
    "DO_NOTHING": 5,
}


def weights_for(aid, platform):
    w = dict(TW_WEIGHTS if platform == "twitter" else RD_WEIGHTS)
    if LABEL[aid] == "MediaOutlet":
        w["CREATE_POST"] *= 2.2
        w["LIKE_POST"] *= 0.4
        w["FOLLOW"] *= 0.5
        if "DISLIKE_POST" in w:
            w["DISLIKE_POST"] = 0
        if "CREATE_COMMENT" in w:
            w["CREATE_COMMENT"] = 0
    elif LABEL[aid] == "Organization":
        w["CREATE_POST"] *= 1.5
        if "DISLIKE_POST" in w:
            w["DISLIKE_POST"] *= 0.2
    if STANCE[aid] in ("mid", "media") and "DISLIKE_POST" in w:
        w["DISLIKE_POST"] = 0
    elif LABEL[aid] == "Person" and "DISLIKE_POST" in w:
        w["DISLIKE_POST"] *= 3.0
    return w


def reposts_ok(aid, author):
    rel = relation(aid, author)
    if rel == "disagree":
        return False
    if LABEL[aid] == "Person":
        return True
    # Institutional accounts share allies, the press, and their own people.
    return (
        rel == "agree"
        or LABEL[author] == "MediaOutlet"
        or (AGENTS[aid][0], AGENTS[author][0]) in AFFILIATED
    )


class Platform:
    def __init__(self, name, t0):
        self.name = name
        self.t = t0
        self.lines = []
        self.posts = []  # dicts: id, author, content, round (original posts only)
        self.next_post_id = 1
        self.next_follow_id = 1
        self.reacted = set()  # (agent, post_id) like/dislike
        self.disliked = {}  # (agent, author) -> dislikes given
        self.reposted = set()
        self.follows = set()
        self.total = 0

    def stamp(self, seconds):
        self.t += timedelta(seconds=seconds)
        return self.t.isoformat(timespec="microseconds")

    def pick_post(self, aid, rnd, prefer):
        cands = []
        for p in self.posts:
            if p["author"] == aid:
                continue
            w = 1.0 + 2.5 * max(0, 2 - (rnd - p["round"]))  # recent posts surface first
            rel = relation(aid, p["author"])
            if prefer == "agree" and rel == "agree":
                w *= 3
            if prefer == "agree" and rel == "disagree":
                w *= 0.15
            if prefer == "disagree":
                if rel != "disagree":
                    continue
                if (
                    AGENTS[aid][0] in PUBLIC_FIGURES
                    and AGENTS[p["author"]][0] not in PUBLIC_FIGURES
                ):
                    continue
                # nobody piles on the same person all day
                w *= 4.0 / (1 + 2 * self.disliked.get((aid, p["author"]), 0))
            if LABEL[p["author"]] == "MediaOutlet":
                w *= 1.6
            cands.append((w, p))
        if not cands:
            return None
        total = sum(w for w, _ in cands)
        x = rng.random() * total
        for w, p in cands:
            x -= w
            if x <= 0:
                return p
        return cands[-1][1]

    def act(self, aid, rnd, kind):
        """Return action_args/result for one action or None if it can't happen."""
        if kind == "CREATE_POST":
            text = compose_post(aid, rnd, self.name)
            if not text:
                return None
            self.posts.append(
                {"id": self.next_post_id, "author": aid, "content": text, "round": rnd}
            )
            self.next_post_id += 1
            return {"content": text}, None
        if kind in ("LIKE_POST", "DISLIKE_POST"):
            for _ in range(4):
                p = self.pick_post(aid, rnd, "agree" if kind == "LIKE_POST" else "disagree")
                if p and (aid, p["id"]) not in self.reacted:
                    if kind == "DISLIKE_POST" and relation(aid, p["author"]) != "disagree":
                        continue
                    self.reacted.add((aid, p["id"]))
                    if kind == "DISLIKE_POST":
                        key = (aid, p["author"])
                        self.disliked[key] = self.disliked.get(key, 0) + 1
                    return {
                        "post_id": p["id"],
                        "post_content": p["content"],
                        "post_author_name": AGENTS[p["author"]][1],
                    }, None
            return None
        if kind == "REPOST":
            for _ in range(4):
                p = self.pick_post(aid, rnd, "agree")
                if p and (aid, p["id"]) not in self.reposted and reposts_ok(aid, p["author"]):
                    self.reposted.add((aid, p["id"]))
                    new_id = self.next_post_id
                    self.next_post_id += 1
                    return {
                        "new_post_id": new_id,
                        "original_post_id": p["id"],
                        "original_content": p["content"],
                        "original_author_name": AGENTS[p["author"]][1],
                    }, None
            return None
        if kind in ("QUOTE_POST", "CREATE_COMMENT"):
            p = self.pick_post(aid, rnd, "any")
            if not p:
                return None
            text = compose_reply(aid, p["author"], p["round"], rnd, self.name)
            if not text:
                return None
            if kind == "QUOTE_POST":
                new_id = self.next_post_id
                self.next_post_id += 1
                return {
                    # As MiroFish writes it (OASIS's quote_post(post_id, quote_content)):
                    # quote_content is what the quoting agent wrote, original_content the
                    # text of the post being quoted.
                    "quoted_id": p["id"],
                    "new_post_id": new_id,
                    "quote_content": text,
                    "original_content": p["content"],
                    "original_author_name": AGENTS[p["author"]][1],
                }, None
            return {
                "post_id": p["id"],
                "content": text,
                "post_content": p["content"],
                "post_author_name": AGENTS[p["author"]][1],
            }, None
        if kind == "FOLLOW":
            cands = []
            for other in range(len(AGENTS)):
                if other == aid or (aid, other) in self.follows:
                    continue
                w = 1.0
                rel = relation(aid, other)
                w *= {"agree": 3, "neutral": 1.5, "disagree": 0.4}[rel]
                if LABEL[other] == "MediaOutlet":
                    w *= 2.5
                cands.append((w, other))
            if not cands:
                return None
            total = sum(w for w, _ in cands)
            x = rng.random() * total
            target = cands[-1][1]
            for w, o in cands:
                x -= w
                if x <= 0:
                    target = o
                    break
            self.follows.add((aid, target))
            fid = self.next_follow_id
            self.next_follow_id += 1
            return {"follow_id": fid, "target_user_name": AGENTS[target][1]}, None
        if kind == "DO_NOTHING":
            return {}, None
        raise ValueError(kind)

    def run_round(self, rnd):
        hour = (START_HOUR + (rnd - 1) * MINUTES_PER_ROUND // 60) % 24
        self.lines.append(
            {
                "round": rnd,
                "timestamp": self.stamp(rng.uniform(0.4, 1.8)),
                "event_type": "round_start",
                "simulated_hour": hour,
            }
        )
        n_active = rng.randint(14, 18)
        pool = list(range(len(AGENTS)))
        active = []
        while len(active) < n_active:
            ws = [AGENTS[i][4] for i in pool]
            x = rng.random() * sum(ws)
            pick = pool[-1]
            for i, w in zip(pool, ws, strict=True):
                x -= w
                if x <= 0:
                    pick = i
                    break
            active.append(pick)
            pool.remove(pick)
        plan = []
        for aid in active:
            plan.append(aid)
            if rng.random() < 0.3:
                plan.append(aid)
        rng.shuffle(plan)
        # The LLM step takes a while; actions are logged together when it returns.
        self.stamp(rng.uniform(3.0, 4.5) * len(plan))
        count = 0
        for aid in plan:
            w = weights_for(aid, self.name)
            if rnd == 1 and len(self.posts) < 4:
                w = {"CREATE_POST": 1}
            done = None
            while w and done is None:
                kinds = list(w)
                x = rng.random() * sum(w.values())
                kind = kinds[-1]
                for k in kinds:
                    x -= w[k]
                    if x <= 0:
                        kind = k
                        break
                res = self.act(aid, rnd, kind)
                if res is not None:
                    done = (kind, res)
                else:
                    del w[kind]  # not possible right now; pick something else
            if done is None:
                done = ("DO_NOTHING", ({}, None))
            kind, (args, result) = done
            self.lines.append(
                {
                    "round": rnd,
                    "timestamp": self.stamp(rng.uniform(0.001, 0.02)),
                    "agent_id": aid,
                    "agent_name": AGENTS[aid][1],
                    "action_type": kind,
                    "action_args": args,
                    "result": result,
                    "success": True,
                }
            )
            count += 1
        self.total += count
        self.lines.append(
            {
                "round": rnd,
                "timestamp": self.stamp(rng.uniform(0.01, 0.05)),
                "event_type": "round_end",
                "actions_count": count,
                "simulated_hour": hour,
            }
        )

    def finish(self):
        self.lines.append(
            {
                "round": ROUNDS,
                "timestamp": self.stamp(rng.uniform(0.5, 1.5)),
                "event_type": "simulation_end",
                "total_rounds": ROUNDS,
                "total_actions": self.total,
            }
        )


# ---------------------------------------------------------------------------
# Output
# ---------------------------------------------------------------------------
def write_json(path, obj):
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        json.dump(obj, f, ensure_ascii=False, indent=2)
        f.write("\n")


def write_jsonl(path, rows):
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        for row in rows:
            f.write(json.dumps(row, ensure_ascii=False) + "\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument(
        "--out", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "mirofish_run")
    )
    args = ap.parse_args()
    out = args.out

    graph, _uid = build_graph()

    twitter = Platform("twitter", SIM_START)
    reddit = Platform("reddit", SIM_START + timedelta(milliseconds=183))
    for rnd in range(1, ROUNDS + 1):
        twitter.run_round(rnd)
        reddit.run_round(rnd)
    twitter.finish()
    reddit.finish()

    reddit_profiles = []
    twitter_rows = []
    for aid, (key, name, _label, _stance, _w) in enumerate(AGENTS):
        (username, age, gender, mbti, profession, karma, topics, bio, persona) = PROFILES[key]
        reddit_profiles.append(
            {
                "user_id": aid,
                "username": username,
                "name": name,
                "bio": bio,
                "persona": persona,
                "karma": karma,
                "age": age,
                "gender": gender,
                "mbti": mbti,
                "country": "United Kingdom",
                "profession": profession,
                "interested_topics": topics,
            }
        )
        twitter_rows.append([aid, name, username, bio + " " + persona, bio])

    os.makedirs(os.path.join(out, "twitter"), exist_ok=True)
    os.makedirs(os.path.join(out, "reddit"), exist_ok=True)
    write_json(os.path.join(out, "graph.json"), graph)
    write_jsonl(os.path.join(out, "twitter", "actions.jsonl"), twitter.lines)
    write_jsonl(os.path.join(out, "reddit", "actions.jsonl"), reddit.lines)
    write_json(os.path.join(out, "reddit_profiles.json"), reddit_profiles)
    with open(os.path.join(out, "twitter_profiles.csv"), "w", encoding="utf-8", newline="") as f:
        w = csv.writer(f)
        w.writerow(["user_id", "name", "username", "user_char", "description"])
        w.writerows(twitter_rows)

    print(
        f"wrote {out}: {len(graph['nodes'])} nodes, {len(graph['edges'])} edges, "
        f"twitter {twitter.total} actions, reddit {reddit.total} actions"
    )


if __name__ == "__main__":
    main()
