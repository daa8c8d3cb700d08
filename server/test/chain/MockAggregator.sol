// SPDX-License-Identifier: UNLICENSED
pragma solidity ^0.8.20;

/// A Chainlink aggregator standing in for a price feed in the rates tests: it answers
/// latestRoundData() with the round a test sets, its time included (a stale one too).
contract MockAggregator {
    uint8 public immutable decimals;
    string public constant description = "Mock / USD";
    uint80 private roundId;
    int256 private answer;
    uint256 private updatedAt;

    constructor(uint8 decimals_) {
        decimals = decimals_;
    }

    function setRound(int256 answer_, uint256 updatedAt_) external {
        roundId += 1;
        answer = answer_;
        updatedAt = updatedAt_;
    }

    function latestRoundData()
        external
        view
        returns (uint80, int256, uint256, uint256, uint80)
    {
        return (roundId, answer, updatedAt, updatedAt, roundId);
    }
}
