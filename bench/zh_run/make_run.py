"""Writes bench/zh_run/run: a Chinese MiroFish run in MiroFish's exact formats (an
API-wrapped graph export, OASIS profile files, <platform>/actions.jsonl with naive local
timestamps), and bench/zh_run/labels.json: the topic of every action, keyed by the episode
id the importer derives for it.

    .venv/bin/python bench/zh_run/make_run.py

Deterministic: the same seed writes the same bytes. The posts come from hand-written
templates (several phrasings per topic and stance, with names, numbers and dates filled
in), so that retrieval meets what it meets in real runs: exact duplicates (agents posting
the same slogan), near-copies, reposts without text of their own, short replies that name
nothing, English and mixed posts among the Chinese ones.
"""

from __future__ import annotations

import csv
import json
import random
import sys
import uuid
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1] / "python"))

from swarm_memory.mirofish.read import read_actions  # noqa: E402

SEED = 20260302
RUN = HERE / "run"
ROUNDS = 10
START = datetime(2026, 3, 2, 9, 0, 0)  # round r starts at START + (r - 1) * 15 min
ROUND_MINUTES = 15


def round_start(r: int) -> datetime:
    return START + timedelta(minutes=ROUND_MINUTES * (r - 1))


def z(t: datetime) -> str:
    return t.strftime("%Y-%m-%dT%H:%M:%SZ")


TOPICS = {
    "riverroad": {"zh": "滨江路机动车禁行试点", "en": "the River Road car ban trial"},
    "datacenter": {"zh": "西山数据中心用水", "en": "the Xishan data centre's water use"},
    "lunch": {"zh": "实验小学午餐涨价", "en": "the school lunch price rise"},
    "metro": {"zh": "地铁票价调整", "en": "the metro fare change"},
    "flood": {"zh": "清河洪水预警", "en": "the Qing River flood warning"},
    "football": {"zh": "临江雄狮签约席尔瓦", "en": "the Linjiang Lions signing Carlos Silva"},
    "monalisa": {"zh": "《蒙娜丽莎》借展", "en": "the Mona Lisa loan exhibition"},
    "strike": {"zh": "第一人民医院护士罢工", "en": "the No.1 Hospital nurses' strike"},
}

# When a topic becomes talked about, and the moments its facts change (round numbers).
TOPIC_FROM = {"flood": 2, "strike": 3}
METRO_APPROVED = 4  # the fare rise is approved at the hearing
FLOOD_RED = 5  # the orange warning is raised to red
SIGNED = 6  # the Lions sign Silva
STRIKE_ENDS = 8  # agreement reached, nurses back at work

# name, kind (person / org), username, bio, topics with stance (pro / con / neu / org)
AGENTS: list[tuple[str, str, str, str, dict[str, str]]] = [
    (
        "刘芳",
        "person",
        "liufang_teacher",
        "滨江路边长大的小学语文老师，两个孩子的妈妈。",
        {"riverroad": "pro", "lunch": "con", "flood": "neu"},
    ),
    (
        "王建国",
        "person",
        "wjg_transport",
        "临江市交通运输局局长。",
        {"riverroad": "gov", "metro": "gov"},
    ),
    (
        "李娜",
        "person",
        "lina_reporter",
        "临江日报城市新闻记者，欢迎爆料。",
        {"riverroad": "neu", "datacenter": "neu", "strike": "neu", "metro": "neu"},
    ),
    (
        "张伟",
        "person",
        "zhangwei_taxi",
        "开了十五年出租车的临江人。",
        {"riverroad": "con", "metro": "con", "flood": "neu"},
    ),
    (
        "陈静",
        "person",
        "chenjing_pta",
        "实验小学家长委员会主任。",
        {"lunch": "con", "riverroad": "pro"},
    ),
    (
        "杨洋",
        "person",
        "yangyang_2004",
        "临江大学大三学生，地铁通勤党，球迷。",
        {"metro": "con", "monalisa": "pro", "football": "pro"},
    ),
    ("赵磊", "person", "zhaolei_lions", "临江雄狮球迷会会长。", {"football": "pro"}),
    ("黄敏", "person", "huangmin_rn", "第一人民医院外科护士，护士代表。", {"strike": "pro"}),
    (
        "周杰",
        "person",
        "laozhou_noodles",
        "滨江路老周面馆老板。",
        {"riverroad": "con", "flood": "neu"},
    ),
    (
        "吴昊",
        "person",
        "wuhao_green",
        "环保志愿者，清河护河队队长。",
        {"datacenter": "con", "flood": "neu", "riverroad": "pro"},
    ),
    ("徐丽", "person", "xuli_curator", "临江市美术馆策展人。", {"monalisa": "gov"}),
    ("孙强", "person", "sunqiang_ops", "云启科技西山数据中心运维经理。", {"datacenter": "pro"}),
    (
        "马晓东",
        "person",
        "maxd_xishan",
        "西山村村民，种了二十年茶。",
        {"datacenter": "con", "flood": "neu"},
    ),
    (
        "朱红",
        "person",
        "zhuhong_retired",
        "退休中学老师，爱看展。",
        {"lunch": "neu", "strike": "neu", "monalisa": "con"},
    ),
    (
        "胡斌",
        "person",
        "hubin_rider",
        "外卖骑手，每天跑八十单。",
        {"metro": "con", "flood": "neu", "riverroad": "con"},
    ),
    ("郭婷", "person", "guoting_art", "美院研究生，艺术博主。", {"monalisa": "pro"}),
    (
        "何志明",
        "person",
        "he_zhiming_npc",
        "临江市人大代表。",
        {"datacenter": "con", "lunch": "neu"},
    ),
    ("高雪", "person", "gaoxue_family", "患者家属，母亲在第一人民医院等手术。", {"strike": "con"}),
    (
        "林涛",
        "person",
        "lintao_sports",
        "体育评论员，临江电台《足球夜话》主持。",
        {"football": "con"},
    ),
    (
        "罗佳",
        "person",
        "luojia_commute",
        "在高新区上班，每天地铁一小时。",
        {"metro": "con", "monalisa": "pro"},
    ),
    ("郑凯", "person", "zhengkai_weather", "临江市气象台首席预报员。", {"flood": "gov"}),
    (
        "梁晨",
        "person",
        "liangchen_dev",
        "程序员，写代码也写点评论。",
        {"datacenter": "neu", "metro": "neu", "football": "pro"},
    ),
    (
        "Emily Zhou",
        "person",
        "emily_in_linjiang",
        "English teacher living in Linjiang.",
        {"monalisa": "pro", "riverroad": "pro", "strike": "pro"},
    ),
    ("临江日报", "org", "linjiang_daily", "临江日报官方账号。", {t: "news" for t in TOPICS}),
    (
        "临江市交通运输局",
        "org",
        "linjiang_transport",
        "临江市交通运输局官方账号。",
        {"riverroad": "gov", "metro": "gov"},
    ),
    ("临江市气象台", "org", "linjiang_weather", "临江市气象台官方账号。", {"flood": "gov"}),
    (
        "临江雄狮足球俱乐部",
        "org",
        "linjiang_lions_fc",
        "临江雄狮足球俱乐部官方账号。",
        {"football": "gov"},
    ),
    (
        "临江市第一人民医院",
        "org",
        "linjiang_no1_hospital",
        "临江市第一人民医院官方账号。",
        {"strike": "gov"},
    ),
    ("临江市美术馆", "org", "linjiang_art_museum", "临江市美术馆官方账号。", {"monalisa": "gov"}),
    ("临江实验小学", "org", "linjiang_exp_school", "临江实验小学官方账号。", {"lunch": "gov"}),
    ("云启科技", "org", "yunqi_tech", "云启科技官方账号。", {"datacenter": "gov"}),
]

SLOTS: dict[str, dict[str, list[Any]]] = {
    "riverroad": {
        "km": ["1.2", "1.5", "2"],
        "cars": [320, 410, 560, 600],
        "mins": [20, 25, 40],
        "years": [12, 18, 23],
        "cross": ["解放路", "新华桥", "人民路口", "江滨公园"],
    },
    "datacenter": {
        "t": [3200, 3000, 3500],
        "homes": [9000, 10000, 12000],
        "m": ["1.5", "2", "2.3"],
        "pct": [60, 65, 70],
        "pue": ["1.25", "1.3", "1.28"],
        "dig": [3, 5, 8],
    },
    "lunch": {
        "x": [60, 66, 70],
        "pct": [18, 20, 25],
        "kids": [2, 3],
        "days": [20, 22],
    },
    "metro": {
        "x": [40, 44, 60, 88],
        "n": [9, 11, 12],
        "k": [5, 6, 7],
        "year": [2027, 2028],
        "pass": [120, 150],
        "line": ["3号线", "5号线"],
    },
    "flood": {
        "h": [6, 12, 24],
        "mm": [120, 150, 200],
        "m": ["0.6", "0.8", "1.1"],
        "n": [1200, 1500, 2300],
        "place": ["解放路地道", "清河大桥", "滨河小区", "西山水库下游"],
    },
    "football": {
        "fee": [800, 850, 900],
        "years": [3],
        "age": [29, 31],
        "goals": [18, 21, 24],
    },
    "monalisa": {
        "price": [180],
        "min": [3],
        "days": [91],
        "wait": [2, 3, 4],
        "ins": ["8亿", "9亿"],
    },
    "strike": {
        "n": [4, 5, 6],
        "k": [8, 10],
        "old": [80],
        "new": [150],
        "beds": [1200, 1500],
    },
}

# (stance, phase, text). stance: the stance an author holds (pro / con / neu), "gov" for
# the body in charge, "news" for the paper, "*" for anyone. phase: "any", "early" (before
# the topic's change) or "late" (after it).
POSTS: dict[str, list[tuple[str, str, str]]] = {
    "riverroad": [
        (
            "pro",
            "any",
            "滨江路终于要禁车了！3月9日起试点18个月，早上七点到晚上十点私家车不能进。带孩子散步再也不用贴着墙走了。",
        ),
        (
            "pro",
            "any",
            "支持滨江路禁行试点。上周末我数了一下，从江滨公园到老码头这{km}公里，一小时过了{cars}辆车，吵得人头疼。",
        ),
        (
            "pro",
            "any",
            "孩子每天走滨江路上学，早上车贴着人行道开过去。禁车试点越早越好，别再拖了。",
        ),
        (
            "pro",
            "any",
            "Finally! The River Road car ban trial starts on 9 March. Can't wait to cycle along the river without breathing exhaust. #滨江路",
        ),
        (
            "pro",
            "any",
            "滨江路步行化之后，江边的空气质量监测点应该公开每周数据，让反对的人也看看。",
        ),
        (
            "con",
            "any",
            "老周面馆在滨江路开了{years}年，一半客人是开车来的。禁车以后他们停哪？交通局有没有算过我们这些小店的账？",
        ),
        (
            "con",
            "any",
            "开出租的说一句：滨江路一封，车全挤到{cross}，早高峰本来就堵{mins}分钟，以后只会更堵。",
        ),
        (
            "con",
            "any",
            "禁车可以，配送怎么办？方案只写了早上6点到10点货车放行，中午的外卖和下午的送货车都进不来。",
        ),
        ("con", "any", "滨江路禁行试点听证会才开一次就定了方案？沿街商户没有一个被请去发言。"),
        (
            "neu",
            "any",
            "滨江路禁行试点听证会定在3月5日，在市政府三楼会议室，想发言的市民要提前两天报名。",
        ),
        (
            "neu",
            "any",
            "有人看过滨江路禁行的具体地图吗？隔离桩到底设在哪几个路口？{cross}那边算不算？",
        ),
        (
            "neu",
            "any",
            "滨江路禁车试点：支持的说空气和安全，反对的说生意和绕路，两边都有道理，关键看18个月后的数据。",
        ),
        (
            "gov",
            "any",
            "滨江路禁行是试点，不是永久封路。18个月后我们会根据客流和空气数据评估，效果不好就调整。",
        ),
        (
            "gov",
            "any",
            "关于滨江路机动车禁行试点：每日7时至22时禁止私家车通行，公交、救护车、消防车和持证居民车辆除外，货车6时至10时可进入。",
        ),
        (
            "news",
            "any",
            "【快讯】市交通运输局宣布：滨江路机动车禁行试点将于3月9日启动，为期18个月。局长王建国表示试点期间将每月公布数据。",
        ),
        (
            "news",
            "any",
            "【记者调查】滨江路沿线{years}家商户中，超过一半担心禁车影响生意；但周末步行客流可能增加三成。",
        ),
    ],
    "datacenter": [
        (
            "con",
            "any",
            "西山数据中心一天要用{t}吨水冷却服务器，相当于{homes}户人家一天的用水量。西山水库今年水位已经比去年低了{m}米。",
        ),
        (
            "con",
            "any",
            "我们西山村的井去年还能打上水，今年要往下再挖{dig}米。数据中心建起来以后，地下水就一直在降。",
        ),
        (
            "con",
            "any",
            "The Xishan data centre draws {t} tonnes of water a day from the reservoir. Where is the water impact assessment? #datacenter",
        ),
        ("con", "any", "云启科技的数据中心占了西山最好的水源，村里的茶园今年春天只能靠天浇水。"),
        ("con", "any", "我已经向市人大提交质询，要求云启科技公开西山数据中心近三年的取水记录。"),
        (
            "pro",
            "any",
            "作为运维说两句：西山数据中心的PUE已经做到{pue}，用水主要在夏天高峰。外面传的'一天一万吨'是谣言。",
        ),
        (
            "pro",
            "any",
            "数据中心给西山带来了三百多个工作岗位，冷却水{pct}%循环利用，不是大家想的那样直接排掉。",
        ),
        (
            "neu",
            "any",
            "AI训练集群越多，cooling water就越多。西山数据中心的WUE到底是多少？云启科技应该公开数据。",
        ),
        ("neu", "any", "数据中心用水这件事，关键是取的是水库水还是地下水。有没有懂行的科普一下？"),
        (
            "neu",
            "any",
            "Data centre water use is a real issue but the {t} tonnes figure needs a source. Anyone seen the permit?",
        ),
        (
            "gov",
            "any",
            "云启科技回应：西山数据中心冷却水{pct}%循环利用，年底前将改用闭式循环冷却系统，用水量预计下降一半。",
        ),
        (
            "gov",
            "any",
            "关于西山数据中心用水的说明：我们的取水许可为每日3500吨，实际用量低于许可，数据每月报送水务局。",
        ),
        (
            "news",
            "any",
            "【关注】西山数据中心日均取水{t}吨，村民称井水下降。云启科技表示年底前改造冷却系统。",
        ),
    ],
    "lunch": [
        ("con", "any", "实验小学午餐从12元涨到15元，一个月多出{x}元。菜量没变，鸡腿还是那么小。"),
        ("con", "any", "学校说食材成本涨了{pct}%，那能不能公开鑫味餐饮的采购单？家委会要求看账。"),
        (
            "con",
            "any",
            "家里{kids}个孩子都在实验小学，午餐一涨价一个月就多一百多块。涨价前连家长会都不开。",
        ),
        (
            "con",
            "any",
            "Lunch at the Experimental Primary School goes from 12 to 15 yuan a meal. That's {x} yuan more a month for each child.",
        ),
        (
            "neu",
            "any",
            "当了三十年老师，我理解学校的难处。但午餐涨价前应该开家长会，而不是发一条短信通知。",
        ),
        ("neu", "any", "午餐15元，如果真的多了水果和牛奶，我觉得可以接受。关键是要看得到。"),
        ("neu", "any", "有没有家长知道鑫味餐饮是怎么中标的？实验小学的供餐合同几年一签？"),
        (
            "gov",
            "any",
            "关于学生午餐价格调整的说明：自3月起，午餐标准由每餐12元调整为15元，增加一份水果和一份奶制品，家庭困难学生继续免费。",
        ),
        ("gov", "any", "实验小学将于3月6日下午召开午餐工作家长座谈会，欢迎家委会代表参加。"),
        ("news", "any", "实验小学午餐每餐涨3元引热议，家委会要求公开供餐公司鑫味餐饮的成本明细。"),
    ],
    "metro": [
        ("con", "early", "听说地铁起步价要从2元涨到3元？我每天通勤往返，一个月要多花{x}元。"),
        (
            "con",
            "late",
            "地铁起步价从今天的听证会开始就定了，3元。我每天往返两趟，一个月多花{x}元。",
        ),
        ("con", "any", "地铁票价听证会{n}个消费者代表里有{k}个是地铁集团推荐的，这算什么听证？"),
        (
            "con",
            "any",
            "Metro fares going up from 2 to 3 yuan. Still cheaper than Shanghai, but the monthly pass should come down too.",
        ),
        ("con", "any", "送外卖的坐地铁换片区，一天换四五次，起步价一涨，一个月的饭钱就没了。"),
        ("neu", "any", "学生卡还是半价，65岁以上老人继续免费，这点还算有良心。"),
        ("neu", "any", "算了一下，地铁票价调整后，月票{pass}元比单程划算，坐满22天就回本。"),
        ("neu", "any", "地铁涨价和{line}延伸有关系吗？如果钱真用在新线上，我能接受。"),
        (
            "gov",
            "early",
            "地铁票价调整方案听证会今天上午举行，方案拟将起步价由2元调整为3元，学生半价和老人免费政策不变。",
        ),
        (
            "gov",
            "late",
            "地铁票价调整方案已获通过：起步价调整为3元，票款增收将用于3号线延伸段建设，预计{year}年通车。",
        ),
        (
            "news",
            "any",
            "【地铁】票价调整听证会举行，起步价拟由2元调至3元，{n}名代表中多数表示支持。",
        ),
    ],
    "flood": [
        (
            "gov",
            "early",
            "临江市气象台发布暴雨橙色预警：未来{h}小时清河流域累计降雨量可达{mm}毫米，请沿河居民注意防范。",
        ),
        (
            "gov",
            "late",
            "临江市气象台将暴雨橙色预警升级为红色预警：清河水位已超过警戒线{m}米，请立即远离河堤。",
        ),
        ("gov", "late", "红色预警期间，请勿前往{place}，低洼地带居民听从社区安排转移。"),
        (
            "news",
            "late",
            "【紧急】清河水位超警戒{m}米，滨河小区已转移{n}名居民，全市中小学明日停课。",
        ),
        ("news", "early", "【天气】气象台发布暴雨橙色预警，清河沿岸可能出现内涝，请市民减少出行。"),
        ("neu", "any", "外卖还送不送？{place}已经积水到膝盖了，平台还在派单。"),
        ("neu", "any", "西山水库开闸泄洪了吗？下游清河村的人要不要撤？有没有官方消息？"),
        (
            "neu",
            "any",
            "Flood warning in Linjiang. The Qing River is rising fast near {place}. Stay away from the embankment.",
        ),
        ("neu", "late", "预警升级成红色了，滨江路边上的店都在堆沙袋，老周面馆门口已经进水。"),
        ("neu", "any", "下了一夜的雨，清河大桥下面的水位标尺已经看不到了。大家注意安全。"),
    ],
    "football": [
        ("pro", "early", "听说雄狮在谈巴西前锋卡洛斯·席尔瓦，转会费{fee}万欧元，真的假的？"),
        ("pro", "early", "席尔瓦上赛季进了{goals}个球，要是真能来临江雄狮，锋线就稳了。"),
        ("pro", "late", "官宣！临江雄狮正式签下卡洛斯·席尔瓦，合同3年，身披9号球衣。"),
        ("pro", "late", "Lions sign Carlos Silva! Three-year deal, number 9. Vamos! #临江雄狮"),
        ("pro", "late", "席尔瓦的欢迎仪式定在周六主场，球迷会组织了两千人接机。"),
        ("con", "any", "{fee}万欧元买一个{age}岁的前锋？俱乐部去年还欠着球员工资。"),
        ("con", "any", "引援之前先把青训搞好吧。临江雄狮已经三年没有自己培养的首发了。"),
        (
            "gov",
            "early",
            "临江雄狮足球俱乐部：关于外援引进，俱乐部正在与多名球员接触，请以官方消息为准。",
        ),
        ("gov", "late", "临江雄狮足球俱乐部正式宣布：巴西前锋卡洛斯·席尔瓦加盟，双方签约3年。"),
        ("news", "late", "【体育】临江雄狮签下巴西前锋席尔瓦，转会费据称约{fee}万欧元。"),
    ],
    "monalisa": [
        (
            "pro",
            "any",
            "《蒙娜丽莎》要来临江了！市美术馆4月1日开展，门票{price}元，每人只能在画前停留{min}分钟。",
        ),
        (
            "pro",
            "any",
            "Is the Mona Lisa really coming to Linjiang? Tickets are 180 yuan and you get three minutes with her. I'm in.",
        ),
        ("pro", "any", "美院的同学都在抢预约，听说开票第一天就要排{wait}小时。为了达·芬奇，值得。"),
        ("con", "any", "180元看三分钟，平均一分钟60元。我还是去卢浮宫吧……哦，去不了，画在临江。"),
        ("con", "any", "退休老师说一句：门票180元对老人太贵了，美术馆应该有老年人半价日。"),
        ("neu", "any", "学生票半价吗？美术学院的学生能不能有专场？"),
        ("neu", "any", "《蒙娜丽莎》保险估值{ins}欧元，这次借展的安保到底谁出钱？"),
        (
            "gov",
            "any",
            "作为策展人想澄清：展厅恒温20度、湿度50%，防弹玻璃由卢浮宫派专人安装，每位观众停留3分钟是为了保证人人能看到。",
        ),
        (
            "gov",
            "any",
            "临江市美术馆《蒙娜丽莎》特展：2026年4月1日至6月30日，门票180元，学生票90元，即日起在官方小程序预约。",
        ),
        (
            "news",
            "any",
            "【文化】卢浮宫《蒙娜丽莎》首次来临江展出{days}天，市美术馆预计接待观众五十万人次。",
        ),
    ],
    "strike": [
        ("pro", "early", "第一人民医院的护士今天开始罢工，急诊和ICU照常运转，门诊挂号暂停。"),
        ("pro", "any", "我们不是不想上班，是连续{n}个夜班，一个夜班补贴只有80元。"),
        ("pro", "any", "一个护士管{k}个以上病人，出了事谁负责？我们要求护患比降下来。"),
        (
            "pro",
            "any",
            "Nurses at Linjiang No.1 Hospital are on strike. Emergency and ICU stay open. Support our nurses! #护士不是超人",
        ),
        ("pro", "late", "协议达成！夜班补贴提高到150元，护患比降到1比{k}，护士明天复工。"),
        ("con", "any", "我妈明天本来要做手术，现在医院通知延期，谁来负责？"),
        (
            "con",
            "any",
            "理解护士辛苦，但罢工受苦的是病人。第一人民医院{beds}张床，住院的人怎么办？",
        ),
        ("neu", "any", "护士罢工第一天，门诊大厅空空荡荡，只有急诊门口排着队。"),
        (
            "gov",
            "early",
            "第一人民医院声明：急诊、ICU和产科正常运转，择期手术顺延，医院正与护士代表协商。",
        ),
        (
            "gov",
            "late",
            "第一人民医院与护士代表达成协议：夜班补贴由80元提高至150元，增加护士编制，护理工作今日恢复正常。",
        ),
        ("news", "any", "【民生】第一人民医院护士罢工，诉求为提高夜班补贴、降低护患比，急诊照常。"),
    ],
}

# Slogans: posted word for word by several agents (exact duplicates).
SLOGANS = {
    "riverroad": ["还滨江路给行人！#滨江路步行化#", "滨江路不能一禁了之！"],
    "datacenter": ["水是村民的，不是服务器的！"],
    "lunch": ["午餐涨价请先公开账目！"],
    "metro": ["地铁涨价，工资涨了吗？"],
    "flood": ["清河涨水，远离河堤！转发扩散！"],
    "football": ["雄狮必胜！欢迎席尔瓦来到临江！"],
    "monalisa": ["一生一定要看一次《蒙娜丽莎》！"],
    "strike": ["支持护士！#护士不是超人#"],
}

# Replies and quotes: topic words in some, nothing of the topic in others.
REPLIES: dict[str, list[str]] = {
    "riverroad": [
        "禁车以后老人去江边医院怎么办？",
        "滨江路早该步行化了。",
        "商户的损失谁来补？",
        "试点18个月太长了，6个月评估一次吧。",
        "配送时间能不能放宽到中午？",
        "Cars off River Road is the best news this year.",
    ],
    "datacenter": [
        "取水许可证能公开吗？",
        "井水下降和数据中心有没有直接关系，要看水文报告。",
        "闭式循环冷却早就该上了。",
        "村里的茶园真的受影响了。",
        "PUE和用水是两回事。",
    ],
    "lunch": [
        "15元的午餐，家长有权知道钱花在哪。",
        "多了水果牛奶还行吧。",
        "家委会加油！",
        "鑫味餐饮的合同应该公开招标。",
        "我家孩子说饭菜没变化。",
    ],
    "metro": [
        "起步价3元也还行。",
        "听证会就是走过场。",
        "月票能不能再便宜点？",
        "学生半价保住了就好。",
        "3号线早点通车吧。",
    ],
    "flood": [
        "注意安全！",
        "解放路地道千万别走。",
        "气象台辛苦了。",
        "明天停课吗？",
        "滨河小区的人都转移了吗？",
        "Stay safe everyone.",
    ],
    "football": [
        "期待席尔瓦首秀！",
        "转会费太贵了。",
        "9号球衣给他没毛病。",
        "先把工资发了再说。",
        "Welcome to Linjiang, Carlos!",
    ],
    "monalisa": [
        "一定要去看！",
        "180元有点贵。",
        "三分钟够拍照吗？",
        "有学生票就好。",
        "卢浮宫居然肯借，厉害。",
    ],
    "strike": [
        "支持护士！",
        "病人怎么办？",
        "夜班补贴80元太少了。",
        "希望早点谈妥。",
        "护患比确实太高。",
        "Nurses deserve better.",
    ],
}
GENERIC_REPLIES = [
    "说得对。",
    "同意楼上。",
    "有没有数据支撑？",
    "+1",
    "这个要看具体执行。",
    "转发了。",
    "哈哈哈",
    "关注一下后续。",
    "Agreed.",
    "不太认同。",
]


def near_copy(text: str, rng: random.Random) -> str:
    """A near-copy: the same post with a small change, as agents repost by hand."""
    choice = rng.randrange(5)
    if choice == 0:
        return "转：" + text
    if choice == 1:
        return text.replace("。", "！", 1) if "。" in text else text + "！"
    if choice == 2:
        return text + rng.choice([" 👍", " 🙏", "【扩散】", " #临江#"])
    if choice == 3:
        return text.rstrip("。！") + "，大家怎么看？"
    return "【" + rng.choice(["关注", "热议", "求证"]) + "】" + text


def phase_of(topic: str, rnd: int) -> str:
    change = {
        "metro": METRO_APPROVED,
        "flood": FLOOD_RED,
        "football": SIGNED,
        "strike": STRIKE_ENDS,
    }.get(topic)
    if change is None:
        return "any"
    return "late" if rnd >= change else "early"


class Sim:
    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.lines: dict[str, list[dict[str, Any]]] = {"twitter": [], "reddit": []}
        self.topics: dict[str, list[str | None]] = {"twitter": [], "reddit": []}
        self.posts: dict[str, list[dict[str, Any]]] = {"twitter": [], "reddit": []}
        self.next_post = {"twitter": 1, "reddit": 1}
        self.next_comment = 1
        self.written: dict[str, list[str]] = {t: [] for t in TOPICS}

    def fill(self, topic: str, text: str) -> str:
        slots = {k: self.rng.choice(v) for k, v in SLOTS[topic].items()}
        return text.format(**slots)

    def compose(self, agent: int, topic: str, rnd: int) -> str:
        stance = AGENTS[agent][4][topic]
        phase = phase_of(topic, rnd)
        pool = [t for s, p, t in POSTS[topic] if s == stance and p in ("any", phase)]
        if not pool or (stance in ("pro", "con") and self.rng.random() < 0.15):
            pool += [t for s, p, t in POSTS[topic] if s == "neu" and p in ("any", phase)]
        if not pool:  # nothing in this voice yet: report what others say
            pool = [t for s, p, t in POSTS[topic] if s != "gov" and p in ("any", phase)]
        r = self.rng.random()
        if r < 0.10 and stance not in ("gov", "news"):
            return self.rng.choice(SLOGANS[topic])  # word for word
        if r < 0.20 and self.written[topic]:
            return near_copy(self.rng.choice(self.written[topic]), self.rng)
        text = self.fill(topic, self.rng.choice(pool))
        self.written[topic].append(text)
        return text

    def emit(
        self,
        platform: str,
        rnd: int,
        t: datetime,
        agent: int,
        kind: str,
        args: dict[str, Any],
        topic: str | None,
    ) -> None:
        self.lines[platform].append(
            {
                "round": rnd,
                "timestamp": t.isoformat(timespec="microseconds"),
                "agent_id": agent,
                "agent_name": AGENTS[agent][0],
                "action_type": kind,
                "action_args": args,
                "result": None,
                "success": True,
            }
        )
        self.topics[platform].append(topic)

    def event(self, platform: str, rnd: int, t: datetime, **fields: Any) -> None:
        self.lines[platform].append(
            {"round": rnd, "timestamp": t.isoformat(timespec="microseconds"), **fields}
        )
        self.topics[platform].append("__event__")

    def topic_for(self, agent: int, rnd: int) -> str:
        options = [t for t in AGENTS[agent][4] if TOPIC_FROM.get(t, 1) <= rnd]
        if not options:
            options = list(AGENTS[agent][4])
        weights = [3 if t in ("flood", "strike") and rnd < 8 else 1 for t in options]
        return self.rng.choices(options, weights)[0]

    def pick_post(self, platform: str, agent: int, rnd: int) -> dict[str, Any] | None:
        mine = set(AGENTS[agent][4])
        candidates = [p for p in self.posts[platform] if p["author"] != agent]
        if not candidates:
            return None
        liked = [p for p in candidates if p["topic"] in mine]
        pool = liked if liked and self.rng.random() < 0.8 else candidates
        pool = sorted(pool, key=lambda p: -p["id"])[:12]  # the feed shows recent posts
        return self.rng.choice(pool)

    def post(self, platform: str, rnd: int, t: datetime, agent: int) -> None:
        topic = self.topic_for(agent, rnd)
        text = self.compose(agent, topic, rnd)
        pid = self.next_post[platform]
        self.next_post[platform] += 1
        self.posts[platform].append({"id": pid, "author": agent, "topic": topic, "text": text})
        self.emit(platform, rnd, t, agent, "CREATE_POST", {"content": text}, topic)

    def act(self, platform: str, rnd: int, t: datetime, agent: int) -> None:
        rng = self.rng
        if platform == "twitter":
            kinds = ["CREATE_POST", "LIKE_POST", "REPOST", "QUOTE_POST", "FOLLOW", "DO_NOTHING"]
            weights = [34, 24, 12, 12, 8, 10]
        else:
            kinds = [
                "CREATE_POST",
                "CREATE_COMMENT",
                "LIKE_POST",
                "DISLIKE_POST",
                "FOLLOW",
                "MUTE",
                "DO_NOTHING",
            ]
            weights = [22, 32, 20, 5, 7, 4, 10]
        kind = rng.choices(kinds, weights)[0]
        if AGENTS[agent][1] == "org" and kind in ("MUTE", "DISLIKE_POST"):
            kind = "CREATE_POST"
        target = self.pick_post(platform, agent, rnd)
        if kind not in ("CREATE_POST", "FOLLOW", "MUTE", "DO_NOTHING") and target is None:
            kind = "CREATE_POST"
        if kind == "CREATE_POST":
            self.post(platform, rnd, t, agent)
        elif kind in ("LIKE_POST", "DISLIKE_POST"):
            args = {
                "post_id": target["id"],
                "post_content": target["text"],
                "post_author_name": AGENTS[target["author"]][0],
            }
            self.emit(platform, rnd, t, agent, kind, args, target["topic"])
        elif kind == "REPOST":
            pid = self.next_post[platform]
            self.next_post[platform] += 1
            args = {
                "new_post_id": pid,
                "original_post_id": target["id"],
                "original_content": target["text"],
                "original_author_name": AGENTS[target["author"]][0],
            }
            self.posts[platform].append({**target, "id": pid, "author": agent})
            self.emit(platform, rnd, t, agent, kind, args, target["topic"])
        elif kind == "QUOTE_POST":
            pid = self.next_post[platform]
            self.next_post[platform] += 1
            topic = target["topic"]
            own = (
                self.compose(agent, topic, rnd)
                if topic in AGENTS[agent][4] and rng.random() < 0.4
                else rng.choice(REPLIES[topic])
            )
            args = {
                "quoted_id": target["id"],
                "new_post_id": pid,
                "quote_content": own,
                "original_content": target["text"],
                "original_author_name": AGENTS[target["author"]][0],
            }
            self.posts[platform].append({"id": pid, "author": agent, "topic": topic, "text": own})
            self.emit(platform, rnd, t, agent, kind, args, topic)
        elif kind == "CREATE_COMMENT":
            topic = target["topic"]
            r = rng.random()
            if r < 0.25:
                said = rng.choice(GENERIC_REPLIES)
            elif r < 0.8 or topic not in AGENTS[agent][4]:
                said = rng.choice(REPLIES[topic])
            else:
                said = self.compose(agent, topic, rnd)
            self.next_comment += 1
            args = {
                "post_id": target["id"],
                "content": said,
                "post_content": target["text"],
                "post_author_name": AGENTS[target["author"]][0],
            }
            self.emit(platform, rnd, t, agent, kind, args, topic)
        elif kind in ("FOLLOW", "MUTE"):
            other = rng.choice([a for a in range(len(AGENTS)) if a != agent])
            key = "follow_id" if kind == "FOLLOW" else "mutee_id"
            args = {key: other, "target_user_name": AGENTS[other][0]}
            self.emit(platform, rnd, t, agent, kind, args, None)
        else:
            self.emit(platform, rnd, t, agent, "DO_NOTHING", {}, None)

    def run(self) -> None:
        rng = self.rng
        for rnd in range(1, ROUNDS + 1):
            for platform, offset, share in (("twitter", 0.0, 0.8), ("reddit", 0.35, 0.65)):
                t = round_start(rnd) + timedelta(seconds=offset)
                self.event(
                    platform,
                    rnd,
                    t,
                    event_type="round_start",
                    simulated_hour=8 + 2 * (rnd - 1) % 24,
                )
                t += timedelta(seconds=rng.uniform(40, 90))
                count = 0
                agents = list(range(len(AGENTS)))
                rng.shuffle(agents)
                for agent in agents:
                    steps = 0
                    if agent == 0 and platform == "reddit" and rnd in (1, 2, 4, 7):
                        # 刘芳 mutes someone first: a summary must still show her posts
                        other = rng.choice([3, 8, 14])
                        self.emit(
                            platform,
                            rnd,
                            t,
                            agent,
                            "MUTE",
                            {"mutee_id": other, "target_user_name": AGENTS[other][0]},
                            None,
                        )
                        t += timedelta(milliseconds=rng.randint(4, 40))
                        count += 1
                        steps = 1
                    if rng.random() < share:
                        steps += 1
                        self.act(platform, rnd, t, agent)
                        count += 1
                        t += timedelta(milliseconds=rng.randint(4, 40))
                    if agent in (0, 23) and rng.random() < 0.5:
                        self.post(platform, rnd, t, agent)  # the prolific ones
                        count += 1
                        t += timedelta(milliseconds=rng.randint(4, 40))
                    _ = steps
                t += timedelta(seconds=rng.uniform(1, 3))
                self.event(
                    platform,
                    rnd,
                    t,
                    event_type="round_end",
                    actions_count=count,
                    simulated_hour=8 + 2 * (rnd - 1) % 24,
                )
        for platform in ("twitter", "reddit"):
            last = self.lines[platform][-1]
            t = datetime.fromisoformat(last["timestamp"]) + timedelta(seconds=1)
            total = sum(1 for x in self.lines[platform] if "event_type" not in x)
            self.event(
                platform,
                ROUNDS,
                t,
                event_type="simulation_end",
                total_rounds=ROUNDS,
                total_actions=total,
            )


def uid(rng: random.Random) -> str:
    return str(uuid.UUID(int=rng.getrandbits(128), version=4))


# Entities of the graph: name, label, summary, attributes.
ENTITIES: list[tuple[str, str, str, dict[str, Any]]] = [
    (
        "刘芳",
        "Person",
        "刘芳是滨江路边长大的小学语文老师，支持滨江路禁行试点，也关心实验小学午餐涨价。",
        {"occupation": "教师"},
    ),
    (
        "王建国",
        "Person",
        "王建国是临江市交通运输局局长，滨江路机动车禁行试点和地铁票价调整方案的主要推动者。",
        {"title": "局长"},
    ),
    (
        "李娜",
        "Person",
        "李娜是临江日报的城市新闻记者，报道滨江路、数据中心和医院罢工。",
        {"occupation": "记者"},
    ),
    (
        "张伟",
        "Person",
        "张伟是开了十五年出租车的司机，反对滨江路禁车和地铁涨价。",
        {"occupation": "出租车司机"},
    ),
    (
        "陈静",
        "Person",
        "陈静是临江实验小学家长委员会主任，要求公开午餐成本。",
        {"role": "家委会主任"},
    ),
    ("周杰", "Person", "周杰在滨江路开老周面馆，担心禁车影响生意。", {"business": "老周面馆"}),
    ("吴昊", "Person", "吴昊是环保志愿者、清河护河队队长。", {"occupation": "志愿者"}),
    (
        "徐丽",
        "Person",
        "徐丽是临江市美术馆策展人，负责《蒙娜丽莎》特展。",
        {"occupation": "策展人"},
    ),
    ("孙强", "Person", "孙强是云启科技西山数据中心运维经理。", {"occupation": "运维经理"}),
    ("马晓东", "Person", "马晓东是西山村村民，称数据中心建成后井水下降。", {"village": "西山村"}),
    ("黄敏", "Person", "黄敏是第一人民医院外科护士，罢工中的护士代表。", {"occupation": "护士"}),
    ("何志明", "Person", "何志明是临江市人大代表，就数据中心取水提出质询。", {"title": "人大代表"}),
    ("赵磊", "Person", "赵磊是临江雄狮球迷会会长。", {"role": "球迷会会长"}),
    ("郑凯", "Person", "郑凯是临江市气象台首席预报员。", {"occupation": "预报员"}),
    (
        "卡洛斯·席尔瓦",
        "Person",
        "卡洛斯·席尔瓦（Carlos Silva）是巴西前锋，2026年3月加盟临江雄狮足球俱乐部。",
        {"position": "前锋", "nationality": "巴西"},
    ),
    ("临江市交通运输局", "Organization", "临江市交通运输局负责滨江路禁行试点和地铁票价调整。", {}),
    ("临江日报", "Organization", "临江日报是临江市的主要报纸。", {}),
    ("临江市气象台", "Organization", "临江市气象台发布清河流域暴雨预警。", {}),
    ("临江雄狮足球俱乐部", "Organization", "临江雄狮足球俱乐部是临江的职业足球俱乐部。", {}),
    (
        "临江市第一人民医院",
        "Organization",
        "临江市第一人民医院是全市最大的综合医院，护士于2026年3月罢工。",
        {"beds": 1500},
    ),
    ("临江市美术馆", "Organization", "临江市美术馆举办卢浮宫《蒙娜丽莎》借展。", {}),
    ("临江实验小学", "Organization", "临江实验小学将学生午餐由12元调至15元。", {}),
    ("云启科技", "Organization", "云启科技是运营西山数据中心的科技公司。", {}),
    ("鑫味餐饮", "Organization", "鑫味餐饮是实验小学的供餐公司。", {}),
    ("临江地铁集团", "Organization", "临江地铁集团运营全市地铁线路。", {}),
    ("卢浮宫", "Organization", "卢浮宫博物馆出借《蒙娜丽莎》。", {}),
    ("滨江路", "Location", "滨江路是临江市沿江的主干道，沿线有江滨公园和老码头。", {}),
    ("清河", "Location", "清河流经临江市区，2026年3月水位超过警戒线。", {}),
    ("西山数据中心", "Location", "西山数据中心位于西山村附近，从西山水库取水冷却。", {}),
    ("西山水库", "Location", "西山水库是西山村和数据中心的水源。", {}),
    (
        "滨江路机动车禁行试点",
        "Policy",
        "每日7时至22时禁止私家车在滨江路通行的18个月试点，3月9日启动。",
        {},
    ),
    (
        "地铁票价调整方案",
        "Policy",
        "将地铁起步价由2元调整为3元的方案，学生半价、老人免费不变。",
        {},
    ),
    ("暴雨预警", "Event", "临江市气象台对清河流域发布的暴雨预警，先橙色后红色。", {}),
    ("《蒙娜丽莎》", "Artwork", "达·芬奇的画作，2026年4月1日至6月30日在临江市美术馆展出。", {}),
]

D = {  # validity of facts: before the run, or a moment of it
    "seed": "2026-02-20T00:00:00Z",
    "feb25": "2026-02-25T00:00:00Z",
    "mar1": "2026-03-01T00:00:00Z",
}


def facts() -> list[tuple[str, str, str, str, str | None, str | None]]:
    """(source, relation, target, fact, valid_at, invalid_at)."""
    r = lambda n: z(round_start(n))  # noqa: E731
    return [
        (
            "王建国",
            "WORKS_FOR",
            "临江市交通运输局",
            "王建国担任临江市交通运输局局长。",
            "2023-06-01T00:00:00Z",
            None,
        ),
        (
            "王建国",
            "PROPOSED",
            "滨江路机动车禁行试点",
            "王建国提出滨江路机动车禁行试点。",
            D["feb25"],
            None,
        ),
        (
            "滨江路机动车禁行试点",
            "APPLIES_TO",
            "滨江路",
            "滨江路机动车禁行试点每日7时至22时禁止私家车在滨江路通行。",
            D["feb25"],
            None,
        ),
        (
            "周杰",
            "OPPOSES",
            "滨江路机动车禁行试点",
            "周杰担心滨江路禁车会让老周面馆失去开车来的客人。",
            D["mar1"],
            None,
        ),
        (
            "张伟",
            "OPPOSES",
            "滨江路机动车禁行试点",
            "出租车司机张伟认为滨江路禁车会让解放路更堵。",
            D["mar1"],
            None,
        ),
        (
            "刘芳",
            "SUPPORTS",
            "滨江路机动车禁行试点",
            "刘芳支持滨江路禁行试点，因为孩子每天走滨江路上学。",
            D["mar1"],
            None,
        ),
        (
            "刘芳",
            "MEMBER_OF",
            "滨江路",
            "刘芳曾是滨江路社区居民委员会委员。",
            "2020-01-01T00:00:00Z",
            "2025-12-31T00:00:00Z",
        ),
        (
            "李娜",
            "WORKS_FOR",
            "临江日报",
            "李娜是临江日报的城市新闻记者。",
            "2021-03-01T00:00:00Z",
            None,
        ),
        (
            "云启科技",
            "OPERATES",
            "西山数据中心",
            "云启科技运营西山数据中心。",
            "2024-05-01T00:00:00Z",
            None,
        ),
        (
            "西山数据中心",
            "DRAWS_WATER_FROM",
            "西山水库",
            "西山数据中心每天从西山水库取水约3200吨用于冷却。",
            D["seed"],
            None,
        ),
        (
            "孙强",
            "WORKS_FOR",
            "云启科技",
            "孙强是云启科技西山数据中心的运维经理。",
            "2024-05-01T00:00:00Z",
            None,
        ),
        (
            "马晓东",
            "COMPLAINS_ABOUT",
            "西山数据中心",
            "马晓东称西山数据中心建成后西山村的井水下降。",
            D["mar1"],
            None,
        ),
        (
            "何志明",
            "QUESTIONS",
            "云启科技",
            "何志明向市人大提交质询，要求云启科技公开取水记录。",
            r(3),
            None,
        ),
        (
            "临江实验小学",
            "RAISED_PRICE",
            "鑫味餐饮",
            "临江实验小学由鑫味餐饮供餐，午餐价格由每餐12元调至15元。",
            "2026-03-01T00:00:00Z",
            None,
        ),
        (
            "陈静",
            "DEMANDS",
            "临江实验小学",
            "陈静代表家委会要求实验小学公开午餐成本明细。",
            D["mar1"],
            None,
        ),
        (
            "临江地铁集团",
            "CHARGES",
            "地铁票价调整方案",
            "临江地铁起步价为2元。",
            "2015-01-01T00:00:00Z",
            r(METRO_APPROVED),
        ),
        (
            "临江地铁集团",
            "CHARGES",
            "地铁票价调整方案",
            "听证会通过地铁票价调整方案后，临江地铁起步价为3元。",
            r(METRO_APPROVED),
            None,
        ),
        (
            "王建国",
            "PRESENTED",
            "地铁票价调整方案",
            "王建国在听证会上介绍地铁票价调整方案，学生半价和老人免费不变。",
            r(1),
            None,
        ),
        (
            "临江市气象台",
            "ISSUED",
            "暴雨预警",
            "临江市气象台对清河流域发布暴雨橙色预警。",
            r(TOPIC_FROM["flood"]),
            r(FLOOD_RED),
        ),
        (
            "临江市气象台",
            "ISSUED",
            "暴雨预警",
            "临江市气象台将清河流域暴雨预警升级为红色预警。",
            r(FLOOD_RED),
            None,
        ),
        (
            "暴雨预警",
            "AFFECTS",
            "清河",
            "暴雨预警期间清河水位超过警戒线。",
            r(TOPIC_FROM["flood"]),
            None,
        ),
        (
            "郑凯",
            "WORKS_FOR",
            "临江市气象台",
            "郑凯是临江市气象台首席预报员。",
            "2019-07-01T00:00:00Z",
            None,
        ),
        (
            "临江雄狮足球俱乐部",
            "NEGOTIATES_WITH",
            "卡洛斯·席尔瓦",
            "临江雄狮足球俱乐部与卡洛斯·席尔瓦进行转会谈判。",
            D["feb25"],
            r(SIGNED),
        ),
        (
            "卡洛斯·席尔瓦",
            "SIGNED_WITH",
            "临江雄狮足球俱乐部",
            "卡洛斯·席尔瓦与临江雄狮足球俱乐部签约三年。",
            r(SIGNED),
            None,
        ),
        (
            "赵磊",
            "SUPPORTS",
            "临江雄狮足球俱乐部",
            "赵磊是临江雄狮球迷会会长。",
            "2018-01-01T00:00:00Z",
            None,
        ),
        (
            "临江市美术馆",
            "EXHIBITS",
            "《蒙娜丽莎》",
            "临江市美术馆将于2026年4月1日至6月30日展出《蒙娜丽莎》，门票180元。",
            D["seed"],
            None,
        ),
        (
            "卢浮宫",
            "LENDS",
            "《蒙娜丽莎》",
            "卢浮宫将《蒙娜丽莎》借给临江市美术馆展出。",
            D["seed"],
            None,
        ),
        ("徐丽", "CURATES", "《蒙娜丽莎》", "徐丽是《蒙娜丽莎》特展的策展人。", D["seed"], None),
        (
            "黄敏",
            "WORKS_FOR",
            "临江市第一人民医院",
            "黄敏是临江市第一人民医院的外科护士。",
            "2016-09-01T00:00:00Z",
            None,
        ),
        (
            "黄敏",
            "STRIKES_AGAINST",
            "临江市第一人民医院",
            "黄敏和第一人民医院的护士罢工，要求提高夜班补贴。",
            r(TOPIC_FROM["strike"]),
            r(STRIKE_ENDS),
        ),
        (
            "临江市第一人民医院",
            "AGREED_WITH",
            "黄敏",
            "临江市第一人民医院与护士代表黄敏达成协议，夜班补贴提高到150元。",
            r(STRIKE_ENDS),
            None,
        ),
        (
            "吴昊",
            "PROTESTS",
            "西山数据中心",
            "吴昊质疑西山数据中心的用水，要求公开水资源评估。",
            D["mar1"],
            None,
        ),
    ]


def graph(rng: random.Random) -> dict[str, Any]:
    ids = {name: uid(rng) for name, *_ in ENTITIES}
    # the graph builder's ingest episodes: text chunks of the seed document and of the
    # simulation's memory updates. Their ids never appear in the action logs.
    ingest = [uid(rng) for _ in range(9)]
    nodes = [
        {
            "uuid": ids[name],
            "name": name,
            "labels": ["Entity", label],
            "summary": summary,
            "attributes": attrs,
            "created_at": f"2026-03-01T08:{10 + i:02d}:{rng.randint(0, 59):02d}.{rng.randint(0, 999999):06d}Z",
        }
        for i, (name, label, summary, attrs) in enumerate(ENTITIES)
    ]
    edges = []
    for i, (src, rel, dst, fact, valid, invalid) in enumerate(facts()):
        created = f"2026-03-01T08:{40 + i // 3:02d}:{rng.randint(0, 59):02d}.{rng.randint(0, 999999):06d}Z"
        edges.append(
            {
                "uuid": uid(rng),
                "name": rel,
                "fact": fact,
                "fact_type": rel,
                "source_node_uuid": ids[src],
                "target_node_uuid": ids[dst],
                "source_node_name": src,
                "target_node_name": dst,
                "attributes": {},
                "created_at": created,
                "valid_at": valid,
                "invalid_at": invalid,
                "expired_at": invalid and created,
                "episodes": sorted(rng.sample(ingest, rng.choice([1, 1, 2]))),
            }
        )
    return {
        "success": True,
        "data": {
            "graph_id": "mirofish_7a3e5c9d1b2f4860",
            "nodes": nodes,
            "edges": edges,
            "node_count": len(nodes),
            "edge_count": len(edges),
        },
    }


def profiles(rng: random.Random) -> tuple[list[dict[str, Any]], list[list[Any]]]:
    reddit, twitter = [], []
    mbti = ["ISTJ", "ENFP", "INTJ", "ESFJ", "INFP", "ESTP"]
    for i, (name, kind, username, bio, stances) in enumerate(AGENTS):
        topics = [TOPICS[t]["zh"] for t in stances]
        persona = f"{name}：{bio}关注{'、'.join(topics)}。" + (
            "说话直接，常在网上发表看法。" if kind == "person" else "发布官方消息，语气正式。"
        )
        reddit.append(
            {
                "user_id": i,
                "username": username,
                "name": name,
                "bio": bio,
                "persona": persona,
                "karma": rng.randint(100, 9000),
                "age": rng.randint(20, 66) if kind == "person" else 30,
                "gender": "other" if kind == "org" else rng.choice(["female", "male"]),
                "mbti": rng.choice(mbti),
                "country": "中国",
                "profession": bio.split("，")[0].rstrip("。"),
                "interested_topics": topics,
            }
        )
        twitter.append([i, name, username, persona, bio])
    return reddit, twitter


def main() -> None:
    rng = random.Random(SEED)
    sim = Sim(SEED + 1)
    sim.run()
    RUN.mkdir(parents=True, exist_ok=True)
    for platform in ("twitter", "reddit"):
        (RUN / platform).mkdir(exist_ok=True)
        with open(RUN / platform / "actions.jsonl", "w", encoding="utf-8") as fh:
            for line in sim.lines[platform]:
                fh.write(json.dumps(line, ensure_ascii=False) + "\n")
    (RUN / "graph.json").write_text(
        json.dumps(graph(rng), ensure_ascii=False, indent=1) + "\n", encoding="utf-8"
    )
    reddit, twitter = profiles(rng)
    (RUN / "reddit_profiles.json").write_text(
        json.dumps(reddit, ensure_ascii=False, indent=2) + "\n", encoding="utf-8"
    )
    with open(RUN / "twitter_profiles.csv", "w", encoding="utf-8", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(["user_id", "name", "username", "user_char", "description"])
        w.writerows(twitter)
    labels: dict[str, str | None] = {}
    rows = []
    for platform in ("twitter", "reddit"):
        log = read_actions(RUN / platform / "actions.jsonl", platform)
        actions = [t for t in sim.topics[platform] if t != "__event__"]
        assert len(actions) == len(log.episodes)
        for episode, topic in zip(log.episodes, actions, strict=True):
            labels[episode["id"]] = topic
            rows.append(
                [
                    platform,
                    episode["metadata"]["line"],
                    episode["agent_id"],
                    episode["round"],
                    episode["action_type"],
                    topic,
                ]
            )
    (HERE / "labels.json").write_text(
        json.dumps(
            {
                "about": "The topic of every action of bench/zh_run/run (see README.md).",
                "run": "run",
                "topics": TOPICS,
                "key": "episode id as swarm_memory.mirofish.read.read_actions derives it",
                "labels": labels,
                "row_columns": ["platform", "line", "agent_id", "round", "action_type", "topic"],
                "rows": rows,
            },
            ensure_ascii=False,
            indent=1,
        )
        + "\n",
        encoding="utf-8",
    )
    counts: dict[str, int] = {}
    for platform in ("twitter", "reddit"):
        for x in sim.lines[platform]:
            if "action_type" in x:
                counts[x["action_type"]] = counts.get(x["action_type"], 0) + 1
    print(f"{len(labels)} actions", dict(sorted(counts.items())))


if __name__ == "__main__":
    main()
