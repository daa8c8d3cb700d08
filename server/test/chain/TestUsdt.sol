// SPDX-License-Identifier: UNLICENSED
pragma solidity ^0.8.20;

/// A minimal ERC-20 standing in for BEP20 USDT in the chain adapter tests.
contract TestUsdt {
    string public constant name = "Test Tether USD";
    string public constant symbol = "USDT";
    uint8 public immutable decimals;
    uint256 public totalSupply;
    mapping(address => uint256) public balanceOf;

    event Transfer(address indexed from, address indexed to, uint256 value);

    constructor(uint8 decimals_, uint256 supply) {
        decimals = decimals_;
        totalSupply = supply;
        balanceOf[msg.sender] = supply;
        emit Transfer(address(0), msg.sender, supply);
    }

    function transfer(address to, uint256 value) public returns (bool) {
        require(balanceOf[msg.sender] >= value, "insufficient balance");
        balanceOf[msg.sender] -= value;
        balanceOf[to] += value;
        emit Transfer(msg.sender, to, value);
        return true;
    }

    /// Two Transfer logs in one transaction: one hash, two log indexes.
    function transferTwice(address to, uint256 first, uint256 second) external {
        transfer(to, first);
        transfer(to, second);
    }
}

/// A token whose `transfer` returns nothing, as USDT on Ethereum does: callers that insist on a
/// returned bool fail on it.
contract NoBoolUsdt {
    uint8 public immutable decimals;
    mapping(address => uint256) public balanceOf;

    event Transfer(address indexed from, address indexed to, uint256 value);

    constructor(uint8 decimals_, uint256 supply) {
        decimals = decimals_;
        balanceOf[msg.sender] = supply;
        emit Transfer(address(0), msg.sender, supply);
    }

    function transfer(address to, uint256 value) external {
        require(balanceOf[msg.sender] >= value, "insufficient balance");
        balanceOf[msg.sender] -= value;
        balanceOf[to] += value;
        emit Transfer(msg.sender, to, value);
    }
}
