-- MetaRoCE Open Draft dissector for Wireshark (Lua, Wireshark 3.6 or newer).
--
-- Decodes every header of the MetaRoCE Open Draft (spec/metaroce-open-draft.md, section 5): the common
-- header, the data header with each opcode's extension, ACK (with the SACK bitmap as a list of received
-- PSNs), NACK and PROBE, and checks the CRC32C trailer. Field names follow the spec's own field names
-- (metaroce.psn, metaroce.sack, ...); a test (DissectorFieldsTest) compares what tshark prints through this
-- file with what the project's codec decodes, so the two cannot drift apart.
--
-- This is the open, independent project's draft, not Meta's specification.
--
-- Install: copy this file into Wireshark's personal Lua plugins folder (Help > About > Folders, e.g.
-- ~/.local/lib/wireshark/plugins/), or run `tshark -X lua_script:tools/wireshark/metaroce.lua ...`.
-- The UDP port is a preference (Edit > Preferences > Protocols > MetaRoCE), 4796 by default.

local DEFAULT_PORT = 4796
local COMMON_LENGTH = 16
local TRAILER_LENGTH = 4

local metaroce = Proto("metaroce", "MetaRoCE Open Draft")

local opcodes = {
    [0x01] = "WRITE",
    [0x02] = "WRITE_WITH_IMMEDIATE",
    [0x03] = "SEND",
    [0x04] = "READ_REQUEST",
    [0x05] = "READ_RESPONSE",
    [0x10] = "ACK",
    [0x11] = "NACK",
    [0x12] = "PROBE",
}

-- Header length of each opcode, trailer excluded (Table 5-2).
local header_lengths = {
    [0x01] = 48, [0x02] = 52, [0x03] = 40, [0x04] = 52, [0x05] = 40,
    [0x10] = 60, [0x11] = 32, [0x12] = 20,
}

local nack_codes = {
    [0x01] = "REMOTE_ACCESS",
    [0x02] = "BOUNDS",
    [0x03] = "RECEIVER_NOT_READY",
    [0x04] = "MESSAGE_TOO_LONG",
    [0x05] = "INVALID_REQUEST",
    [0x06] = "UNKNOWN_CONNECTION",
    [0x07] = "PSN_OUT_OF_WINDOW",
}

local crc_status = { [0] = "Bad", [1] = "Good" }

local f = {
    version = ProtoField.uint8("metaroce.version", "Version", base.HEX),
    major = ProtoField.uint8("metaroce.version.major", "Major version", base.DEC, nil, 0xF0),
    minor = ProtoField.uint8("metaroce.version.minor", "Minor version", base.DEC, nil, 0x0F),
    opcode = ProtoField.uint8("metaroce.opcode", "Opcode", base.HEX, opcodes),
    flags = ProtoField.uint16("metaroce.flags", "Flags", base.HEX),
    retransmission = ProtoField.bool("metaroce.flags.retransmission", "RETRANSMISSION", 16, nil, 0x0001),
    ack_request = ProtoField.bool("metaroce.flags.ack_request", "ACK_REQUEST", 16, nil, 0x0002),
    flags_reserved = ProtoField.uint16("metaroce.flags.reserved", "Reserved flags", base.HEX, nil, 0xFFFC),
    connection = ProtoField.uint32("metaroce.connection_id", "Destination connection id", base.HEX),
    path = ProtoField.uint8("metaroce.path_id", "Path id", base.DEC),
    reserved1 = ProtoField.uint8("metaroce.reserved1", "Reserved", base.HEX),
    reserved2 = ProtoField.uint16("metaroce.reserved2", "Reserved", base.HEX),
    psn = ProtoField.uint32("metaroce.psn", "PSN", base.DEC),
    -- data header (Table 5-4)
    stream = ProtoField.uint16("metaroce.stream_id", "Stream id", base.DEC),
    payload_length = ProtoField.uint16("metaroce.payload_length", "Payload length", base.DEC),
    msn = ProtoField.uint32("metaroce.msn", "Message sequence number", base.DEC),
    message_length = ProtoField.uint32("metaroce.message_length", "Message length", base.DEC),
    message_offset = ProtoField.uint32("metaroce.message_offset", "Message offset", base.DEC),
    transmit_timestamp = ProtoField.uint32("metaroce.transmit_timestamp", "Transmit timestamp", base.DEC),
    -- opcode extensions (Tables 5-5 to 5-8)
    remote_address = ProtoField.uint64("metaroce.remote_address", "Remote address", base.HEX),
    remote_key = ProtoField.uint32("metaroce.remote_key", "Remote key", base.HEX),
    immediate = ProtoField.uint32("metaroce.immediate", "Immediate", base.HEX),
    rsn = ProtoField.uint32("metaroce.rsn", "Receive sequence number", base.DEC),
    sink_handle = ProtoField.uint32("metaroce.sink_handle", "Sink handle", base.HEX),
    payload = ProtoField.bytes("metaroce.payload", "Payload"),
    -- ACK (Table 5-9)
    echoed_timestamp = ProtoField.uint32("metaroce.echoed_timestamp", "Echoed timestamp", base.DEC),
    ce_count = ProtoField.uint16("metaroce.ce_count", "CE count", base.DEC),
    ack_reserved = ProtoField.uint16("metaroce.ack.reserved", "Reserved", base.HEX),
    rate_hint = ProtoField.uint32("metaroce.rate_hint", "Rate hint (Mbit/s)", base.DEC, { [0xFFFFFFFF] = "no limit" }),
    sack = ProtoField.bytes("metaroce.sack", "SACK bitmap"),
    sack_psn = ProtoField.uint32("metaroce.sack.psn", "Received PSN", base.DEC),
    sack_count = ProtoField.uint16("metaroce.sack.count", "PSNs reported received", base.DEC),
    -- NACK (Table 5-10)
    nack_code = ProtoField.uint8("metaroce.nack.code", "NACK code", base.HEX, nack_codes),
    nack_reserved = ProtoField.uint8("metaroce.nack.reserved", "Reserved", base.HEX),
    cumulative_psn = ProtoField.uint32("metaroce.cumulative_psn", "Cumulative PSN", base.DEC),
    retry_after = ProtoField.uint32("metaroce.retry_after", "Retry after (us)", base.DEC),
    -- trailer (Table 5-12)
    crc32c = ProtoField.uint32("metaroce.crc32c", "CRC32C", base.HEX),
    crc32c_status = ProtoField.uint8("metaroce.crc32c.status", "CRC32C status", base.DEC, crc_status),
}
metaroce.fields = f

local e = {
    short = ProtoExpert.new("metaroce.short", "Packet shorter than its header and trailer",
        expert.group.MALFORMED, expert.severity.ERROR),
    opcode = ProtoExpert.new("metaroce.unknown_opcode", "Unknown opcode (clause 5.1.2)",
        expert.group.MALFORMED, expert.severity.ERROR),
    version = ProtoExpert.new("metaroce.unknown_version", "Major version not 1 (clause 5.6.3)",
        expert.group.MALFORMED, expert.severity.WARN),
    length = ProtoExpert.new("metaroce.bad_length", "Length differs from header + payload + trailer (clause 5.1.3)",
        expert.group.MALFORMED, expert.severity.ERROR),
    crc = ProtoExpert.new("metaroce.bad_crc", "CRC32C does not match (clause 5.6.2)",
        expert.group.CHECKSUM, expert.severity.ERROR),
    sack_bit0 = ProtoExpert.new("metaroce.sack_bit0", "SACK bit 0 set: the cumulative PSN cannot be received (clause 5.3.2)",
        expert.group.MALFORMED, expert.severity.ERROR),
    nack_code = ProtoExpert.new("metaroce.unknown_nack_code", "NACK code not in Table 9-1",
        expert.group.MALFORMED, expert.severity.ERROR),
    segment = ProtoExpert.new("metaroce.segment_overrun", "Message offset + payload length exceed the message length (clause 5.2.2)",
        expert.group.MALFORMED, expert.severity.ERROR),
    reserved = ProtoExpert.new("metaroce.reserved_nonzero", "Reserved bits are not zero (ignored on receipt)",
        expert.group.PROTOCOL, expert.severity.NOTE),
    retransmission = ProtoExpert.new("metaroce.retransmission", "Retransmission",
        expert.group.SEQUENCE, expert.severity.NOTE),
}
metaroce.experts = { e.short, e.opcode, e.version, e.length, e.crc, e.sack_bit0, e.nack_code, e.segment, e.reserved,
    e.retransmission }

metaroce.prefs.udp_port = Pref.uint("UDP port", DEFAULT_PORT, "The provisional MetaRoCE destination UDP port (clause 4.1.3)")

-- CRC32C (Castagnoli, reflected polynomial 0x82F63B78), table driven.
local band, bxor, rshift = bit32.band, bit32.bxor, bit32.rshift
local crc_table = {}
for i = 0, 255 do
    local c = i
    for _ = 1, 8 do
        if band(c, 1) == 1 then
            c = bxor(rshift(c, 1), 0x82F63B78)
        else
            c = rshift(c, 1)
        end
    end
    crc_table[i] = c
end

local function crc32c(tvb, offset, length)
    local crc = 0xFFFFFFFF
    local bytes = tvb:raw(offset, length)
    for i = 1, #bytes do
        crc = bxor(rshift(crc, 8), crc_table[band(bxor(crc, bytes:byte(i)), 0xFF)])
    end
    return bxor(crc, 0xFFFFFFFF)
end

local function is_data(opcode)
    return opcode >= 0x01 and opcode <= 0x05
end

local function dissect_data(tvb, tree, opcode, header_length, packet_length, pinfo)
    local data = tree:add(metaroce, tvb(16, header_length - 16), "Data header")
    data:add(f.stream, tvb(16, 2))
    data:add(f.payload_length, tvb(18, 2))
    data:add(f.msn, tvb(20, 4))
    data:add(f.message_length, tvb(24, 4))
    data:add(f.message_offset, tvb(28, 4))
    data:add(f.transmit_timestamp, tvb(32, 4))
    if opcode == 0x01 or opcode == 0x02 or opcode == 0x04 then
        data:add(f.remote_address, tvb(36, 8))
        data:add(f.remote_key, tvb(44, 4))
        if opcode == 0x02 then
            data:add(f.immediate, tvb(48, 4))
        elseif opcode == 0x04 then
            data:add(f.sink_handle, tvb(48, 4))
        end
    elseif opcode == 0x03 then
        data:add(f.rsn, tvb(36, 4))
    elseif opcode == 0x05 then
        data:add(f.sink_handle, tvb(36, 4))
    end
    local payload_length = tvb(18, 2):uint()
    local message_length = tvb(24, 4):uint()
    local message_offset = tvb(28, 4):uint()
    if message_offset + payload_length > message_length then
        data:add_proto_expert_info(e.segment)
    end
    if header_length + payload_length + TRAILER_LENGTH ~= packet_length then
        tree:add_proto_expert_info(e.length)
        return
    end
    if payload_length > 0 then
        tree:add(f.payload, tvb(header_length, payload_length))
    end
    pinfo.cols.info:append(string.format(" stream=%d msn=%d off=%d len=%d", tvb(16, 2):uint(), tvb(20, 4):uint(),
        message_offset, payload_length))
end

local function dissect_ack(tvb, tree, pinfo)
    local ack = tree:add(metaroce, tvb(16, 44), "ACK")
    ack:add(f.echoed_timestamp, tvb(16, 4))
    ack:add(f.ce_count, tvb(20, 2))
    local reserved = ack:add(f.ack_reserved, tvb(22, 2))
    if tvb(22, 2):uint() ~= 0 then
        reserved:add_proto_expert_info(e.reserved)
    end
    ack:add(f.rate_hint, tvb(24, 4))
    local sack = ack:add(f.sack, tvb(28, 32))
    local cumulative = tvb(12, 4):uint()
    local received = 0
    local bitmap = tvb:raw(28, 32)
    for byte_index = 0, 31 do
        local byte = bitmap:byte(byte_index + 1)
        if byte ~= 0 then
            for bit = 0, 7 do
                if band(byte, bit32.lshift(1, bit)) ~= 0 then
                    local i = byte_index * 8 + bit
                    if i == 0 then
                        sack:add_proto_expert_info(e.sack_bit0)
                    end
                    -- PSN arithmetic is modulo 2^32 (clause 2.4).
                    sack:add(f.sack_psn, tvb(28 + byte_index, 1), (cumulative + i) % 4294967296)
                    received = received + 1
                end
            end
        end
    end
    sack:add(f.sack_count, tvb(28, 32), received):set_generated()
    pinfo.cols.info:append(string.format(" cum=%d sacked=%d ce=%d", cumulative, received, tvb(20, 2):uint()))
end

local function dissect_nack(tvb, tree, pinfo)
    local nack = tree:add(metaroce, tvb(16, 16), "NACK")
    local code = tvb(16, 1):uint()
    local code_item = nack:add(f.nack_code, tvb(16, 1))
    if nack_codes[code] == nil then
        code_item:add_proto_expert_info(e.nack_code)
    end
    nack:add(f.nack_reserved, tvb(17, 1))
    nack:add(f.stream, tvb(18, 2))
    nack:add(f.msn, tvb(20, 4))
    nack:add(f.cumulative_psn, tvb(24, 4))
    nack:add(f.retry_after, tvb(28, 4))
    pinfo.cols.info:append(" " .. (nack_codes[code] or string.format("code 0x%02x", code)))
end

function metaroce.dissector(tvb, pinfo, tree)
    local length = tvb:len()
    pinfo.cols.protocol = "MetaRoCE"
    local root = tree:add(metaroce, tvb(), "MetaRoCE Open Draft")
    if length < COMMON_LENGTH + TRAILER_LENGTH then
        root:add_proto_expert_info(e.short)
        return length
    end
    local version = tvb(0, 1):uint()
    local opcode = tvb(1, 1):uint()
    local version_item = root:add(f.version, tvb(0, 1))
    version_item:add(f.major, tvb(0, 1))
    version_item:add(f.minor, tvb(0, 1))
    if rshift(version, 4) ~= 1 then
        version_item:add_proto_expert_info(e.version)
    end
    local opcode_item = root:add(f.opcode, tvb(1, 1))
    local flags_item = root:add(f.flags, tvb(2, 2))
    flags_item:add(f.retransmission, tvb(2, 2))
    flags_item:add(f.ack_request, tvb(2, 2))
    flags_item:add(f.flags_reserved, tvb(2, 2))
    local flags = tvb(2, 2):uint()
    if band(flags, 0xFFFC) ~= 0 then
        flags_item:add_proto_expert_info(e.reserved)
    end
    if band(flags, 0x0001) ~= 0 then
        flags_item:add_proto_expert_info(e.retransmission)
    end
    root:add(f.connection, tvb(4, 4))
    root:add(f.path, tvb(8, 1))
    local r1 = root:add(f.reserved1, tvb(9, 1))
    local r2 = root:add(f.reserved2, tvb(10, 2))
    if tvb(9, 1):uint() ~= 0 or tvb(10, 2):uint() ~= 0 then
        r1:add_proto_expert_info(e.reserved)
    end
    root:add(f.psn, tvb(12, 4))

    local name = opcodes[opcode]
    pinfo.cols.info = string.format("%s path=%d psn=%d", name or string.format("opcode 0x%02x", opcode),
        tvb(8, 1):uint(), tvb(12, 4):uint())
    if name == nil then
        opcode_item:add_proto_expert_info(e.opcode)
        return length
    end
    local header_length = header_lengths[opcode]
    if length < header_length + TRAILER_LENGTH then
        root:add_proto_expert_info(e.short)
        return length
    end

    -- The trailer covers every byte before it (clause 5.6.1).
    local expected = tvb(length - TRAILER_LENGTH, 4):uint()
    local crc_item = root:add(f.crc32c, tvb(length - TRAILER_LENGTH, 4))
    local good = crc32c(tvb, 0, length - TRAILER_LENGTH) == expected
    crc_item:add(f.crc32c_status, tvb(length - TRAILER_LENGTH, 4), good and 1 or 0):set_generated()
    if not good then
        crc_item:add_proto_expert_info(e.crc)
    end

    if is_data(opcode) then
        dissect_data(tvb, root, opcode, header_length, length, pinfo)
    else
        if header_length + TRAILER_LENGTH ~= length then
            root:add_proto_expert_info(e.length)
        end
        if opcode == 0x10 then
            dissect_ack(tvb, root, pinfo)
        elseif opcode == 0x11 then
            dissect_nack(tvb, root, pinfo)
        elseif opcode == 0x12 then
            local probe = root:add(metaroce, tvb(16, 4), "PROBE")
            probe:add(f.transmit_timestamp, tvb(16, 4))
        end
    end
    return length
end

local registered_port = nil
local function register_port()
    local udp_table = DissectorTable.get("udp.port")
    if registered_port ~= nil then
        udp_table:remove(registered_port, metaroce)
    end
    registered_port = metaroce.prefs.udp_port
    udp_table:add(registered_port, metaroce)
end

function metaroce.prefs_changed()
    register_port()
end

register_port()
