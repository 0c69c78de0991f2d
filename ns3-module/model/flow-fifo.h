/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef FLOW_FIFO_H
#define FLOW_FIFO_H

#include <cstddef>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup uniference
 *
 * \brief A first-in first-out queue that costs nothing while empty.
 *
 * The flow level keeps a queue per stream and per pair of endpoints: a million of them in
 * a 4,096-rank all-to-all, nearly all empty or holding one item. std::deque allocates a
 * chunk and a map as soon as it exists; this queue is a vector and the index of its front,
 * freed of its dead prefix once that is most of it.
 */
template <typename T>
class FlowFifo
{
  public:
    /// Iterator over the items, front first.
    using iterator = typename std::vector<T>::iterator;

    /// \return whether it holds nothing
    bool empty() const
    {
        return m_head == m_items.size();
    }

    /// \return the first item (not empty)
    T& front()
    {
        return m_items[m_head];
    }

    /// \param item put at the back
    void push_back(T item)
    {
        m_items.push_back(std::move(item));
    }

    /// Drop the first item (not empty).
    void pop_front()
    {
        m_items[m_head] = T();
        ++m_head;
        if (m_head == m_items.size())
        {
            m_items.clear();
            m_head = 0;
        }
        else if (m_head >= 32 && 2 * m_head >= m_items.size())
        {
            m_items.erase(m_items.begin(), m_items.begin() + m_head);
            m_head = 0;
        }
    }

    /// \return the first item's iterator
    iterator begin()
    {
        return m_items.begin() + m_head;
    }

    /// \return the iterator past the last item
    iterator end()
    {
        return m_items.end();
    }

    /// \param at where \param item put before `at`
    void insert(iterator at, T item)
    {
        m_items.insert(at, std::move(item));
    }

    /// Drop every item and the memory they held.
    void clear()
    {
        std::vector<T>().swap(m_items);
        m_head = 0;
    }

  private:
    std::vector<T> m_items; //!< Dead items before m_head, then the queue
    std::size_t m_head{0};  //!< Index of the front
};

} // namespace ns3

#endif /* FLOW_FIFO_H */
