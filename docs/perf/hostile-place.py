# The hostile place of docs/perf/scripts.md ("arbor serve with every default"):
# python3 docs/perf/hostile-place.py /tmp/hostile.place.json
# arbor serve /tmp/hostile.place.json --ticks 600 --summary-every 5
import json
# Each entry: (name, Update body run in an endless loop after a setup, or a whole source).
setup = """local S = string.rep('x', 1048576) local S2 = string.sub(S, 2) .. 'y'
local P = string.rep('ab', 131072)
local T = table.create(100000, 'v') local E = table.create(100000) E[100000] = 1
local B = buffer.fromstring(S)"""
loops = {
 "Compare": "local _ = S < S2",
 "Reintern": "local _ = S:sub(1)",
 "Split": "local _ = S:split('\\0')",
 "ReadString": "local _ = buffer.readstring(B, 0, 1048576)",
 "Next": "local _ = next(E)",
 "ForBreak": "for _ in next, E do break end",
 "SortLong": "local L = {} for i = 1, 40 do L[i] = string.sub(S, 1, 65536) .. i end table.sort(L)",
 "PlainFind": "local _ = string.find(S, string.sub(S, 1, 524288) .. 'y', 1, true)",
 "Backtrack": "local _ = string.find(S, string.rep('x-', 64) .. 'y')",
 "Class": "local _ = string.match(P, '[' .. string.rep('c', 131072) .. ']')",
 "Bytes": "local _ = select('#', string.byte(S, 1, 7900))",
 "Unpack": "local _ = select('#', unpack(table.create(7900, 1)))",
 "Move": "table.move(T, -1000000000, 1000000000, 0)",
 "GetSignal": "pcall(function() return workspace:GetSignal(S) end)",
 "PrintHuge": "print(S)",
 "PrintMany": "print(unpack(table.create(1000, S)))",
 "Hog": "local held = {} for i = 1, 64 do held[#held + 1] = buffer.create(1048576) end _G_hold = held",
 "Giant": "local _ = buffer.create(240 * 1048576)",
}
children = []
for name, op in loops.items():
    src = setup + "\nfunction Update()\n  while true do\n    pcall(function() " + op + " end)\n  end\nend\n"
    children.append({"class": "Script", "name": name, "source": src})
children.append({"class": "Script", "name": "Bystander", "source": "local t = 0 function Update() t += 1 if t % 60 == 0 then print('bystander', t) end end"})
place = {"format": "arbor-place", "version": 1, "instances": [{"class": "Workspace", "name": "Workspace", "children": children}]}
import sys
json.dump(place, open(sys.argv[1] if len(sys.argv) > 1 else 'hostile.place.json', 'w'), indent=1)
print(len(children), "scripts")
