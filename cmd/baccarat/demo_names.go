package main

import "github.com/tablehouse/baccarat"

// demoNames are the demo tables' and demo tournaments' names in the pages' other languages
// (live.Spec.Names, tournament.Config.Names), by game id, and the dealer's Tiger table by
// its own id: a player in Shanghai or Bangkok finds the lobby in their language, names
// included. A game without an entry is shown by its English name everywhere.
var demoNames = map[string]baccarat.Names{
	"mbs-tiger":         {"zh-CN": "老虎免佣百家乐", "zh-TW": "老虎免佣百家樂", "ko": "타이거 노커미션 바카라", "th": "บาคาร่าไทเกอร์ไม่หักค่าคอม", "vi": "Baccarat Hổ không hoa hồng"},
	"bet-on-baccarat":   {"zh-CN": "押注百家乐", "zh-TW": "押注百家樂", "ko": "벳 온 바카라", "th": "เบ็ตออนบาคาร่า", "vi": "Bet on Baccarat"},
	"punto-banco":       {"zh-CN": "传统百家乐（抽佣）", "zh-TW": "傳統百家樂（抽佣）", "ko": "푼토 방코(커미션 바카라)", "th": "ปุนโตบังโก (หักค่าคอม)", "vi": "Punto Banco (có hoa hồng)"},
	"tiger-live":        {"zh-CN": "老虎免佣百家乐（真人荷官）", "zh-TW": "老虎免佣百家樂（真人荷官）", "ko": "타이거 노커미션 (라이브 딜러)", "th": "ไทเกอร์ไม่หักค่าคอม (ดีลเลอร์)", "vi": "Hổ không hoa hồng (người chia bài)"},
	"mbs-tournament":    {"zh-CN": "百家乐锦标赛", "zh-TW": "百家樂錦標賽", "ko": "바카라 토너먼트", "th": "บาคาร่าทัวร์นาเมนต์", "vi": "Giải đấu Baccarat"},
	"rws-no-commission": {"zh-CN": "免佣百家乐锦标赛", "zh-TW": "免佣百家樂錦標賽", "ko": "노커미션 바카라 토너먼트", "th": "ทัวร์นาเมนต์บาคาร่าไม่หักค่าคอม", "vi": "Giải Baccarat không hoa hồng"},
	"mbs-dragon":        {"zh-CN": "龙宝百家乐锦标赛", "zh-TW": "龍寶百家樂錦標賽", "ko": "드래곤 바카라 토너먼트", "th": "ทัวร์นาเมนต์บาคาร่ามังกร", "vi": "Giải đấu Baccarat Rồng"},
}

// demoRounds are the demo tournaments' rounds' names in the pages' other languages
// (tournament.Round.Names), by their English names.
var demoRounds = map[string]baccarat.Names{
	"Heats": {"zh-CN": "预赛", "zh-TW": "預賽", "ko": "예선", "th": "รอบคัดเลือก", "vi": "Vòng loại"},
	"Final": {"zh-CN": "决赛", "zh-TW": "決賽", "ko": "결승", "th": "รอบชิงชนะเลิศ", "vi": "Chung kết"},
}
