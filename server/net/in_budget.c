/* in_budget.c - a session's budget of bytes read (in_budget.h). */
#include "in_budget.h"

void inb_init(in_budget_t *b, uint32_t burst, uint64_t now_ms)
{
    b->milli = (int64_t)burst * 1000;
    b->at_ms = now_ms;
}

size_t inb_room(in_budget_t *b, uint32_t rate, uint32_t burst,
                uint64_t now_ms)
{
    int64_t full = (int64_t)burst * 1000;
    if (now_ms > b->at_ms) {
        /* bytes a second x ms = thousandths of a byte; the gap is cut to
         * what fills the bucket (a debt too) before it is multiplied, so
         * that neither a long quiet spell nor a huge rate can overflow */
        uint64_t gap = now_ms - b->at_ms;
        if (b->milli < full && rate > 0) {
            uint64_t need = (uint64_t)(full - b->milli);
            if (gap > need / rate + 1)
                gap = need / rate + 1;
            if (gap * (uint64_t)rate < need)
                b->milli += (int64_t)(gap * (uint64_t)rate);
            else
                b->milli = full;
        }
        b->at_ms = now_ms;
    }
    if (b->milli > full)
        b->milli = full; /* the burst was lowered (a reload) */
    return b->milli > 0 ? (size_t)(b->milli / 1000) : 0;
}

void inb_spend(in_budget_t *b, size_t n)
{
    b->milli -= (int64_t)n * 1000;
}

int inb_low(const in_budget_t *b)
{
    return b->milli < 1000;
}

uint64_t inb_wait_ms(const in_budget_t *b, uint32_t rate, size_t want)
{
    int64_t need = (int64_t)want * 1000 - b->milli;
    if (need <= 0)
        return 0;
    return ((uint64_t)need + rate - 1) / rate;
}

uint32_t inb_rate(int max_keys_per_second, int max_bytes_per_second)
{
    if (max_bytes_per_second > 0)
        return (uint32_t)max_bytes_per_second;
    return (uint32_t)max_keys_per_second * INB_BYTES_PER_KEY;
}

uint32_t inb_burst(uint32_t rate)
{
    return rate > INB_BURST_MIN ? rate : INB_BURST_MIN;
}
